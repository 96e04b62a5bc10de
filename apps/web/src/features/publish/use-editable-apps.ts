import { useQuery } from '@tanstack/react-query';
import { fetchEditableApps } from '../../api/publish.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useIsAdmin } from '../../app/session.store.ts';

/** The apps the signed-in user may publish to (admins: all; others: their edit permits). */
export function useEditableApps() {
  const isAdmin = useIsAdmin();
  return useQuery({
    queryKey: [...queryKeys.editableApps, isAdmin],
    queryFn: ({ signal }) => fetchEditableApps(isAdmin, signal),
  });
}
