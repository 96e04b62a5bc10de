import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WorkflowRow } from '@release/contract';
import { commitKeys } from '../../api/commit-logs.api.ts';
import {
  deleteWorkflow,
  fetchWorkflows,
  fetchWorkflowUsers,
  syncWorkflow,
  updateWorkflowOrder,
  workflowKeys,
} from '../../api/workflows.api.ts';
import { toast } from '../../app/feedback.ts';
import { orderPayload } from './workflow-tabs.ts';
import { workflowsText } from './workflows.strings.ts';

/** How often the tabs are read again while the server's first sync of a saved repository workflow runs. */
const FIRST_SYNC_POLL_MS = 1500;

/** GET /api/workflow for the app page's tabs; read again every 1.5 s while `pollWhile` says so. */
export function useWorkflows(appId: number, enabled = true, pollWhile?: (rows: WorkflowRow[]) => boolean) {
  return useQuery({
    queryKey: workflowKeys.list(appId),
    queryFn: ({ signal }) => fetchWorkflows(appId, signal),
    enabled,
    refetchInterval: (query) => (pollWhile?.(query.state.data ?? []) ? FIRST_SYNC_POLL_MS : false),
  });
}

/** Committer names for pick lists (the modal's committers, the filter bar's committer). */
export function useWorkflowUsers(enabled = true) {
  return useQuery({
    queryKey: workflowKeys.users,
    queryFn: ({ signal }) => fetchWorkflowUsers(signal),
    enabled,
    staleTime: 60_000,
  });
}

/** Reorder (optimistic, then refetch), delete and sync now, with the toasts of SPEC §8. */
export function useWorkflowMutations(appId: number) {
  const queryClient = useQueryClient();
  const key = workflowKeys.list(appId);
  const refetch = () => queryClient.invalidateQueries({ queryKey: key });

  const reorder = useMutation({
    mutationFn: (ids: number[]) => updateWorkflowOrder(orderPayload(ids)),
    onMutate: (ids) => {
      const rows = queryClient.getQueryData<WorkflowRow[]>(key) ?? [];
      const orders = new Map(orderPayload(ids).map((o) => [o.id, o.orderNo]));
      const next = rows
        .map((row) => ({ ...row, orderNo: orders.get(row.id) ?? row.orderNo }))
        .sort((a, b) => a.orderNo - b.orderNo);
      queryClient.setQueryData(key, next);
    },
    onSuccess: () => toast.success(workflowsText.sorted),
    onSettled: refetch,
  });

  const remove = useMutation({
    mutationFn: (id: number) => deleteWorkflow(id),
    onSuccess: async () => {
      toast.success(workflowsText.deleted);
      await refetch();
    },
  });

  // A sync that cannot read the repository still answers 200: its reason is shown, and kept on the tab.
  const sync = useMutation({
    mutationFn: (id: number) => syncWorkflow(id),
    onSuccess: async (result) => {
      if (result.error) toast.warning(workflowsText.syncFailed(result.error));
      else toast.success(workflowsText.synced(result.created));
      await Promise.all([refetch(), queryClient.invalidateQueries({ queryKey: commitKeys.all })]);
    },
  });

  return { reorder, remove, sync, refetch };
}
