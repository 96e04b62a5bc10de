import { z } from 'zod';
import { jsonColumn } from '../../db/json-column.ts';

/** An attachment as stored on a record: our blob key, the user's file name, and Lark's file token once synced. */
export const storedTaskFile = z.object({
  s3Key: z.string(),
  fileName: z.string().default(''),
  fileToken: z.string().nullable().default(null),
});
export type StoredTaskFile = z.output<typeof storedTaskFile>;

const people = (column: string) => jsonColumn(column, z.array(z.number()), { fallback: () => [] });
const files = jsonColumn('task_records.attach_files', z.array(storedTaskFile), { fallback: () => [] });

/**
 * The JSON columns of tasks and bugs, one codec each. Damaged values read as empty (reported once as a process
 * warning): the record still lists and syncs. The sync writes by compare-and-set on the stored text, so every writer
 * encodes through here: attachments always with their keys in one order, people as given (the form's order).
 */
export const taskColumns = {
  assigneeIds: people('task_records.assignee_ids'),
  feedbackAssigneeIds: people('app_task_settings.feedback_assignee_ids'),
  attachFiles: {
    decode: files.decode,
    encode: (list: readonly StoredTaskFile[]): string =>
      files.encode(list.map((f) => ({ s3Key: f.s3Key, fileName: f.fileName, fileToken: f.fileToken }))),
  },
};

/** A set of people as the sync compares it: once each, in id order (the same people in another order is no change). */
export function peopleSetText(ids: readonly number[]): string {
  return taskColumns.assigneeIds.encode([...new Set(ids)].sort((a, b) => a - b));
}
