import { branchNames, type WorkflowRow } from '@release/contract';
import type { WorkflowInput } from '../../api/workflows.api.ts';

/** git and svn repository workflows are polled; editors can also sync them now. */
export function isSyncable(row: { contentType: string; repoType?: string | null }): boolean {
  return row.contentType === 'default' && (row.repoType === 'git' || row.repoType === 'svn');
}

/**
 * Whether a save should sync at once: a new repository workflow, or one whose address, kind or branches changed
 * (a fixed address shows its history now, as a new workflow does, instead of "never synced" until the next poll).
 */
export function syncAfterSave(before: WorkflowRow | null, saved: WorkflowInput): boolean {
  if (!isSyncable(saved)) return false;
  if (before === null) return true;
  const branches = (stored: string | null | undefined) => branchNames(stored).sort().join(',');
  return before.repoPath !== (saved.repoPath ?? null) || before.repoType !== (saved.repoType ?? null) || branches(before.defaultBranch) !== branches(saved.defaultBranch);
}
