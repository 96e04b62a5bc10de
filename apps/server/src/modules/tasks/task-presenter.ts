import type { TaskFile, TaskRecord } from '@release/contract';
import type { TaskRecordRow } from './tasks.repository.ts';

/** An attachment as stored on a record: our blob key, the user's file name, and Lark's file token once synced. */
export interface StoredTaskFile {
  s3Key: string;
  fileName: string;
  fileToken: string | null;
}

/** Makes a download link for a stored file (signed, short-lived). */
export type FileLinker = (s3Key: string, fileName: string) => Promise<string>;

export function parseAssignees(raw: string): number[] {
  try {
    const list = JSON.parse(raw) as unknown;
    return Array.isArray(list) ? list.filter((n): n is number => typeof n === 'number') : [];
  } catch {
    return [];
  }
}

export function parseFiles(raw: string): StoredTaskFile[] {
  try {
    const list = JSON.parse(raw) as unknown;
    if (!Array.isArray(list)) return [];
    return list
      .filter(
        (f): f is StoredTaskFile =>
          typeof f === 'object' && f !== null && typeof (f as StoredTaskFile).s3Key === 'string',
      )
      .map((f) => ({ s3Key: f.s3Key, fileName: String(f.fileName ?? ''), fileToken: f.fileToken ?? null }));
  } catch {
    return [];
  }
}

/** Shapes stored rows into the API's records; names come from one lookup per page. */
export async function presentRecords(
  rows: TaskRecordRow[],
  names: Map<number, string>,
  link: FileLinker,
): Promise<TaskRecord[]> {
  return Promise.all(
    rows.map(async (row) => {
      const assigneeIds = parseAssignees(row.assignee_ids);
      const files: TaskFile[] = await Promise.all(
        parseFiles(row.attach_files).map(async (f) => ({
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
    ...parseAssignees(r.assignee_ids),
    ...(r.creator_id === null ? [] : [Number(r.creator_id)]),
  ]);
}
