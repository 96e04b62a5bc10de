import type {
  SaveWorkflowWithRobotBody as SaveWorkflowBody,
  WorkflowRowWithRobot as WorkflowRow,
} from '@release/contract';
import { api } from './client.ts';

/** Query keys of the workflow calls (kept beside them; the shared list lives in query-keys.ts). */
export const workflowKeys = {
  all: ['workflows'] as const,
  list: (appId: number) => ['workflows', appId] as const,
  users: ['workflows', 'users'] as const,
};

/** What the workflow modal sends; the server fills the rest (orderNo, webhook identity). */
export type WorkflowInput = Omit<SaveWorkflowBody, 'id'>;

/** GET /api/workflow: an app's tabs in orderNo order (webhook fields only for editors). */
export async function fetchWorkflows(appId: number, signal?: AbortSignal): Promise<WorkflowRow[]> {
  const rows = (await api.get<WorkflowRow[]>('/api/workflow', { appId }, { signal })).data;
  return [...rows].sort((a, b) => a.orderNo - b.orderNo || a.id - b.id);
}

/** silent: the caller tells the failure itself (the modal shows a refused 仓库地址 under its field). */
export async function createWorkflow(body: WorkflowInput, silent = false): Promise<{ id: number }> {
  return (await api.post<{ id: number }>('/api/workflow', body, { silent })).data;
}

export async function updateWorkflow(body: WorkflowInput & { id: number }, silent = false): Promise<void> {
  await api.post<unknown>('/api/workflow/update', body, { silent });
}

/** POST /api/workflow/update_order: 1-based orderNo per stored tab (never the summary tab). */
export async function updateWorkflowOrder(orders: Array<{ id: number; orderNo: number }>): Promise<void> {
  await api.post<unknown>('/api/workflow/update_order', orders);
}

export async function deleteWorkflow(id: number): Promise<void> {
  await api.del<unknown>('/api/workflow', { id });
}

/** GET /api/workflow/users: committer names seen in the caller's apps (pick list of the modal). */
export async function fetchWorkflowUsers(signal?: AbortSignal): Promise<string[]> {
  return (await api.get<string[]>('/api/workflow/users', undefined, { signal, silent: true })).data;
}

/** A first clone of a big repository takes longer than the default 15 s. */
const SYNC_TIMEOUT_MS = 120_000;

/** What one sync of a git or svn workflow brought: new update items, or why the repository could not be read. */
export interface SyncResult {
  created: number;
  error: string | null;
}

/** POST /api/workflow/sync?id=: polls a git or svn workflow now (editors); a clone can take a while. */
export async function syncWorkflow(id: number): Promise<SyncResult> {
  return (await api.post<SyncResult>('/api/workflow/sync', undefined, { query: { id }, timeoutMs: SYNC_TIMEOUT_MS }))
    .data;
}
