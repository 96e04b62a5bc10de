import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { AppMessages, type AppCollectBody, type AppDetail } from '@release/contract';
import { fetchAppDetail, setAppCollect } from '../../api/apps.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';

/** GET /api/app for the app page header and the settings modal. */
export function useAppDetail(appId: number | null) {
  return useQuery({
    queryKey: queryKeys.appDetail(appId ?? 0),
    queryFn: ({ signal }) => fetchAppDetail(appId ?? 0, signal),
    enabled: appId !== null,
  });
}

/** After an app is created or changed: the list, the category counts and the app's detail. */
export async function refreshAfterAppSave(queryClient: QueryClient, appId: number): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.apps }),
    queryClient.invalidateQueries({ queryKey: queryKeys.categories }),
    queryClient.invalidateQueries({ queryKey: queryKeys.appDetail(appId) }),
  ]);
}

type CollectType = AppCollectBody['appCollectType'];

const toggledText: Record<CollectType, { on: string; off: string }> = {
  collect: { on: zh.appPage.collected, off: zh.appPage.uncollected },
  subscribe: { on: AppMessages.subscribed, off: AppMessages.unsubscribed },
};

/** SPEC §4: favourite and subscribe toggle by the current flag, then the detail is refetched. */
export function useToggleCollect(app: AppDetail) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ type, on }: { type: CollectType; on: boolean }) => setAppCollect(app.appId, type, on),
    onSuccess: async (_result, { type, on }) => {
      toast.success(on ? toggledText[type].on : toggledText[type].off);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.appDetail(app.appId) }),
        // The list shows the favourite star and can be filtered to favourites.
        queryClient.invalidateQueries({ queryKey: queryKeys.apps }),
      ]);
    },
  });
  const toggle = (type: CollectType): void => {
    if (mutation.isPending) return;
    mutation.mutate({ type, on: type === 'collect' ? !app.collected : !app.subscribed });
  };
  const pendingType = mutation.isPending ? mutation.variables.type : null;
  return { toggle, pendingType };
}
