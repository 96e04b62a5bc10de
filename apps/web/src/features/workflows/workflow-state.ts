import { branchNames, type WorkflowRow } from '@release/contract';
import type { WorkflowInput } from '../../api/workflows.api.ts';
import { workflowsText } from './workflows.strings.ts';

/** git and svn repository workflows are polled; editors can also sync them now. */
export function isSyncable(row: { contentType: string; repoType?: string | null }): boolean {
  return row.contentType === 'default' && (row.repoType === 'git' || row.repoType === 'svn');
}

/**
 * Whether a save starts the server's first sync (the server queues it; the page waits for it): a new repository
 * workflow, or one whose address, kind or branches changed — its history shows now, not at the next poll.
 */
export function syncAfterSave(before: WorkflowRow | null, saved: WorkflowInput): boolean {
  if (!isSyncable(saved)) return false;
  if (before === null) return true;
  const branches = (stored: string | null | undefined) => branchNames(stored).sort().join(',');
  return (
    before.repoPath !== (saved.repoPath ?? null) ||
    before.repoType !== (saved.repoType ?? null) ||
    branches(before.defaultBranch) !== branches(saved.defaultBranch)
  );
}

/** How long the page waits for the server's first sync of a saved workflow before it stops asking. */
export const FIRST_SYNC_WAIT_MS = 2 * 60_000;

/** The first sync of a saved workflow the page waits for: its row says neither when it synced nor why it failed. */
export function isAwaitingFirstSync(
  rows: readonly WorkflowRow[],
  awaiting: { id: number; since: number } | null,
  now: number,
): boolean {
  if (awaiting === null || now - awaiting.since > FIRST_SYNC_WAIT_MS) return false;
  const row = rows.find((r) => r.id === awaiting.id);
  return row !== undefined && row.lastSyncTime === null && row.lastSyncError === null;
}

/** What an empty list tells the user to do on this tab. */
export function emptyHintOf(row: WorkflowRow | null, canEdit: boolean): string {
  const hints = workflowsText.emptyHints;
  if (row && isSyncable(row) && row.lastSyncError) return canEdit ? hints.syncFailedEditor : hints.syncFailed;
  if (row && isSyncable(row) && row.lastSyncTime === null) return canEdit ? hints.neverSyncedEditor : hints.neverSynced;
  if (row?.contentType === 'package') return hints.package;
  // Fed by another system through the push address (a 知识库 tab follows Lark documents instead).
  if (row?.contentType === 'custom' && row.manageType !== 'wiki') return canEdit ? hints.customEditor : hints.custom;
  return hints.filtered;
}
