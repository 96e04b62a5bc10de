import { useQuery } from '@tanstack/react-query';
import { fetchLoginOptions } from '../api/auth.api.ts';
import { queryKeys } from '../api/query-keys.ts';

/**
 * Whether the server has a Lark app (LARK_APP_ID): documents, sending to people, Lark task lists and tables.
 * Read from the public login options (the query the login page uses, so it is fetched once); false until
 * known. Lark-only controls are hidden without a Lark app rather than shown disabled.
 */
export function useIsLarkEnabled(): boolean {
  const options = useQuery({
    queryKey: queryKeys.loginOptions,
    queryFn: ({ signal }) => fetchLoginOptions(signal),
    staleTime: 5 * 60_000,
  });
  return options.data?.larkEnabled ?? false;
}
