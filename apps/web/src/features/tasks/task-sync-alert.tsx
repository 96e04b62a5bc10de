import { Alert } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { TaskHistoryEntry, TaskRecord } from '@release/contract';
import { fetchTaskHistory } from '../../api/tasks.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { tasksText as t } from './tasks.strings.ts';

/** The newest refusal Lark gave this record's push, unless a later version got through since. */
export function pendingSyncFailure(
  record: Pick<TaskRecord, 'larkSyncedVersion'>,
  history: TaskHistoryEntry[],
): TaskHistoryEntry | null {
  const failures = history
    .filter((h) => h.source === 'lark' && h.field === 'larkSyncFailed')
    .sort((a, b) => b.id - a.id);
  const newest = failures[0];
  return newest && newest.recordVersion > (record.larkSyncedVersion ?? 0) ? newest : null;
}

/** In the edit drawer: why Lark did not take this record (what to grant), and how to send it again. */
export function TaskSyncAlert({ record }: { record: TaskRecord }) {
  const history = useQuery({
    queryKey: queryKeys.taskHistory(record.guid),
    queryFn: ({ signal }) => fetchTaskHistory(record.guid, signal),
  });
  const failure = history.data ? pendingSyncFailure(record, history.data) : null;
  // Deleted in Lark: nothing more goes there, so an old refusal is no longer worth acting on.
  if (record.larkDeleted)
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={t.larkSync.deleted[record.larkDeleted]}
        data-testid="task-lark-deleted"
      />
    );
  if (!failure) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      message={`${t.larkSync.failed}：${failure.newValue ?? ''}`}
      description={t.larkSync.hint}
      data-testid="task-sync-failed"
    />
  );
}
