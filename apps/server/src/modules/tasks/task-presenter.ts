import type { TaskFile, TaskRecord } from '@release/contract';
import { taskColumns } from './task-columns.ts';
import type { TaskRecordRow } from './tasks.repository.ts';

/** Makes a download link for a stored file (signed, short-lived). */
export type FileLinker = (s3Key: string, fileName: string) => Promise<string>;

/** Shapes stored rows into the API's records; names come from one lookup per page. */
export async function presentRecords(
  rows: TaskRecordRow[],
  names: Map<number, string>,
  link: FileLinker,
): Promise<TaskRecord[]> {
  return Promise.all(
    rows.map(async (row) => {
      const assigneeIds = taskColumns.assigneeIds.decode(row.assignee_ids);
      const files: TaskFile[] = await Promise.all(
        taskColumns.attachFiles.decode(row.attach_files).map(async (f) => ({
          s3Key: f.s3Key,
          fileName: f.fileName,
          name: f.fileName,
          fileToken: f.fileToken,
          url: await link(f.s3Key, f.fileName),
        })),
      );
      const creatorId = row.creator_id === null ? null : Number(row.creator_id);
      return {
        id: Number(row.id),
        guid: row.guid,
        appId: Number(row.app_id),
        recordType: row.record_type,
        summary: row.summary,
        description: row.description,
        assigneeIds,
        assignees: assigneeIds.map((userId) => ({ userId, name: names.get(userId) ?? String(userId) })),
        creatorId,
        creatorName: creatorId === null ? null : (names.get(creatorId) ?? null),
        startAt: row.start_at,
        due: row.due,
        completedAt: row.completed_at,
        priority: row.priority,
        status: row.status,
        moduleName: row.module_name,
        bugStatus: row.bug_status,
        bugType: row.bug_type,
        bugSeverity: row.bug_severity,
        bugPriority: row.bug_priority,
        bugRemark: row.bug_remark,
        attachFiles: row.record_type === 'task' ? files : [],
        bugAttachFiles: row.record_type === 'bug' ? files : [],
        commentCount: Number(row.comment_count),
        recordVersion: Number(row.record_version),
        larkGuid: row.lark_guid,
        larkRecordId: row.lark_record_id,
        larkSyncedVersion: row.lark_synced_version === null ? null : Number(row.lark_synced_version),
        larkDeleted: row.lark_deleted,
        clientToken: row.client_token,
        versionId: row.version_id === null ? null : Number(row.version_id),
        createTime: row.create_time,
        updateTime: row.update_time,
      };
    }),
  );
}

/** The user ids a page of records names (assignees and creators). */
export function userIdsOf(rows: TaskRecordRow[]): number[] {
  return rows.flatMap((r) => [
    ...taskColumns.assigneeIds.decode(r.assignee_ids),
    ...(r.creator_id === null ? [] : [Number(r.creator_id)]),
  ]);
}
