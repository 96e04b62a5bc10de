import { randomUUID } from 'node:crypto';
import type { Insertable, Updateable } from 'kysely';
import type { TaskRecordsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { NewTaskHistory, TaskRecordRow, TasksRepository } from './tasks.repository.ts';

/** Record columns whose changes are kept in task_history, with the API's field names. */
const TRACKED: Array<[keyof TaskRecordRow & string, string]> = [
  ['summary', 'summary'],
  ['description', 'description'],
  ['assignee_ids', 'assigneeIds'],
  ['start_at', 'startAt'],
  ['due', 'due'],
  ['completed_at', 'completedAt'],
  ['priority', 'priority'],
  ['status', 'status'],
  ['module_name', 'moduleName'],
  ['bug_status', 'bugStatus'],
  ['bug_type', 'bugType'],
  ['bug_severity', 'bugSeverity'],
  ['bug_priority', 'bugPriority'],
  ['bug_remark', 'bugRemark'],
  ['attach_files', 'attachFiles'],
];
const asText = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function diff(
  before: TaskRecordRow,
  after: Updateable<TaskRecordsTable>,
  actorId: number,
  now: number,
): NewTaskHistory[] {
  const rows: NewTaskHistory[] = [];
  for (const [column, field] of TRACKED) {
    if (!(column in after)) continue;
    const oldValue = asText(before[column]);
    const newValue = asText(after[column as keyof typeof after]);
    if (oldValue !== newValue)
      rows.push({
        actor_id: actorId,
        source: 'local',
        field,
        old_value: oldValue,
        new_value: newValue,
        create_time: now,
        comment_id: null,
      });
  }
  return rows;
}

/** What a new record's row always has beside its form: a guid, no Lark link yet, its creator and times. */
export type NewFields = Omit<
  Insertable<TaskRecordsTable>,
  | 'guid'
  | 'creator_id'
  | 'completed_at'
  | 'lark_guid'
  | 'lark_record_id'
  | 'lark_synced_version'
  | 'lark_updated_at'
  | 'updated_by'
  | 'create_time'
  | 'update_time'
>;
/** Inserts a new record with its 'created' history entry; answers its guid. */
export function recordInserter(tasks: TasksRepository, clock: Clock) {
  return async function insertNew(fields: NewFields, actorId: number | null): Promise<string> {
    const now = clock.now();
    const guid = randomUUID();
    await tasks.insert(
      {
        ...fields,
        guid,
        creator_id: actorId,
        completed_at: null,
        lark_guid: null,
        lark_record_id: null,
        lark_synced_version: null,
        lark_updated_at: null,
        updated_by: actorId,
        create_time: now,
        update_time: now,
      },
      [
        {
          actor_id: actorId,
          source: 'local',
          field: 'created',
          old_value: null,
          new_value: fields.summary,
          create_time: now,
          comment_id: null,
        },
      ],
    );
    return guid;
  };
}
