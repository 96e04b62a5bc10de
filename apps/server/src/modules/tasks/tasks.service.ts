import {
  AppMessages,
  BUG_DONE_STATUS,
  NEW_BUG_STATUS,
  NEW_TASK_PRIORITY,
  NEW_TASK_STATUS,
  TASK_ATTACHMENT_PREFIX,
  TASK_DONE_STATUS,
  TaskFieldDefaults,
  TaskFieldLabels,
  TaskMessages,
  taskFormProblem,
  type FieldGroupName,
  type FieldGroups,
  type TaskFormInput,
  type TaskRecord,
  type TaskViewSetting,
  type TasksExtraInfo,
  type TaskHistoryEntry,
  type UploadFile,
  type AssignableUser,
} from '@release/contract';
import type { z } from 'zod';
import type { createTaskBody, tasksQuery, updateTaskBody } from '@release/contract';
import type { Updateable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.ts';
import type { TaskRecordsTable } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { keptHere } from './lark-deleted.ts';
import { diff, recordInserter } from './task-rows.ts';
import { taskColumns, type StoredTaskFile } from './task-columns.ts';
import { presentRecords, userIdsOf, type FileLinker } from './task-presenter.ts';
import type { TaskRecordRow, TasksRepository } from './tasks.repository.ts';

export type TaskChange = 'created' | 'updated' | 'comment';

export interface TasksServiceDeps {
  tasks: TasksRepository;
  policy: AppsPolicy;
  uploads: Pick<UploadsService, 'completedUpload' | 'markRegistered'>;
  clock: Clock;
  /** Whether a Lark app is configured (the web app enables the Lark buttons). */
  larkEnabled: boolean;
  /** A linked Bitable's single-select options, when the sync has them; the spec's enumerations otherwise. */
  fieldOptions?: (appId: number) => Promise<Partial<FieldGroups> | null>;
  /** Called after every committed local change (the Lark sync queues its push here). Failures are the caller's to log. */
  onChange?: (record: TaskRecordRow, change: TaskChange) => Promise<void>;
}

/** The per-app task and bug tracker (SPEC §1, §4, §7 Tasks), complete without Lark. */
export function createTasksService(deps: TasksServiceDeps) {
  const { tasks, policy, clock } = deps;

  async function fieldGroups(appId: number): Promise<FieldGroups> {
    const linked = (await deps.fieldOptions?.(appId)) ?? {};
    const modules = await tasks.moduleNames(appId);
    const moduleOptions = linked.moduleName ?? modules.map((m) => ({ value: m, label: m }));
    return {
      status: linked.status ?? [...TaskFieldDefaults.status],
      priority: linked.priority ?? [...TaskFieldDefaults.priority],
      bugStatus: linked.bugStatus ?? [...TaskFieldDefaults.bugStatus],
      bugSeverity: linked.bugSeverity ?? [...TaskFieldDefaults.bugSeverity],
      bugPriority: linked.bugPriority ?? [...TaskFieldDefaults.bugPriority],
      bugType: linked.bugType ?? [...TaskFieldDefaults.bugType],
      moduleName: moduleOptions,
    };
  }

  async function assertAppExists(appId: number) {
    if (!(await tasks.appExists(appId))) throw AppError.notFound(AppMessages.appNotFound);
  }

  /** The record if this user may read it (or edit it), whatever Lark did to it. */
  async function permitted(user: AuthUser, guid: string, need: 'view' | 'edit'): Promise<TaskRecordRow> {
    const record = await tasks.findByGuid(guid);
    if (!record) throw AppError.notFound(TaskMessages.recordNotFound);
    // Someone without a permit on the app is told the record does not exist, as for the app itself.
    const access = await policy.accessOf(user, Number(record.app_id));
    if (!access) throw AppError.notFound(TaskMessages.recordNotFound);
    if (need === 'edit' && access === 'view') throw AppError.noPermission();
    return record;
  }

  async function recordFor(user: AuthUser, guid: string, need: 'view' | 'edit'): Promise<TaskRecordRow> {
    const record = await permitted(user, guid, need);
    // Deleted in Lark: still readable (its history and comments), no longer editable.
    if (need === 'edit' && record.lark_deleted === 'removed') throw AppError.badRequest(TaskMessages.deletedInLark);
    return record;
  }

  /**
   * Whether an edit made on version `seen` may be saved on the record as it is now. An edit of what the user saw
   * just before the sync marked the record deleted in Lark (that mark is the only change since) is one Lark never
   * got: it is kept here as such edits are (decisions: "deleted in Lark"), whether the refresh that found the
   * deletion ran just before the save or during it. Otherwise a record removed after a deletion in Lark is
   * read-only, and any other change since `seen` makes the edit stale.
   */
  async function editBasis(record: TaskRecordRow, seen: number | undefined): Promise<'current' | 'beforeLarkDeletion'> {
    const current = Number(record.record_version);
    const markedAt = record.lark_deleted ? await tasks.larkDeletionVersion(Number(record.id)) : null;
    if (markedAt === current && seen === current - 1) return 'beforeLarkDeletion';
    if (record.lark_deleted === 'removed') throw AppError.badRequest(TaskMessages.deletedInLark);
    if (seen !== undefined && seen !== current) throw AppError.conflict(TaskMessages.staleRecord);
    return 'current';
  }

  async function present(rows: TaskRecordRow[], link: FileLinker): Promise<TaskRecord[]> {
    return presentRecords(rows, await tasks.userNames(userIdsOf(rows)), link);
  }

  /** SPEC §5 messages, then users that exist and option values the app's fields offer. */
  async function checkForm(form: TaskFormInput): Promise<void> {
    const problem = taskFormProblem(form);
    if (problem) throw AppError.badRequest(problem);
    const names = await tasks.userNames(form.assigneeIds);
    const unknown = form.assigneeIds.find((id) => !names.has(id));
    if (unknown !== undefined) throw AppError.badRequest(TaskMessages.unknownUser(unknown));
    const groups = await fieldGroups(form.appId);
    const check = (group: FieldGroupName, value: string | null | undefined) => {
      if (value && !groups[group].some((o) => o.value === value))
        throw AppError.badRequest(TaskMessages.badOption(TaskFieldLabels[group], value));
    };
    if (form.recordType === 'task') {
      check('status', form.status);
      check('priority', form.priority);
    } else {
      check('bugStatus', form.bugStatus);
      check('bugSeverity', form.bugSeverity);
      check('bugPriority', form.bugPriority);
      check('bugType', form.bugType);
    }
  }

  /**
   * The attachments after an edit: files already on the record stay; new ones must be this user's finished
   * uploads under lark_attachment/ and are then claimed (so housekeeping keeps them).
   */
  async function resolveFiles(
    user: AuthUser,
    wanted: UploadFile[] | undefined,
    current: StoredTaskFile[],
  ): Promise<{ files: StoredTaskFile[]; claim: string[] }> {
    if (wanted === undefined) return { files: current, claim: [] };
    const known = new Map(current.map((f) => [f.s3Key, f]));
    const files: StoredTaskFile[] = [];
    const claim: string[] = [];
    for (const file of wanted) {
      if (files.some((f) => f.s3Key === file.s3Key)) continue;
      const existing = known.get(file.s3Key);
      if (existing) {
        files.push({ ...existing, fileName: file.fileName });
        continue;
      }
      if (!file.s3Key.startsWith(TASK_ATTACHMENT_PREFIX)) throw AppError.badRequest(TaskMessages.attachmentKey);
      const session = await deps.uploads.completedUpload(user.userId, file.s3Key).catch(() => {
        throw AppError.badRequest(TaskMessages.badAttachment);
      });
      if (session.state === 'completed') claim.push(session.id);
      files.push({ s3Key: file.s3Key, fileName: file.fileName, fileToken: null });
    }
    return { files, claim };
  }

  /** The record columns an edit sets (the form's fields; status only when chosen), completedAt following status. */
  function formChanges(
    before: TaskRecordRow,
    body: z.infer<typeof updateTaskBody>,
    files: StoredTaskFile[],
    now: number,
  ): Updateable<TaskRecordsTable> {
    const isTask = before.record_type === 'task';
    const changes: Updateable<TaskRecordsTable> = {
      summary: body.summary.trim(),
      description: body.description,
      assignee_ids: taskColumns.assigneeIds.encode(body.assigneeIds),
      start_at: body.startAt ?? null,
      due: body.due ?? null,
      attach_files: taskColumns.attachFiles.encode(files),
    };
    if (isTask) {
      if (body.priority !== undefined) changes.priority = body.priority ?? NEW_TASK_PRIORITY;
      if (body.status) changes.status = body.status;
    } else {
      if (body.moduleName !== undefined) changes.module_name = body.moduleName?.trim() || null;
      if (body.bugStatus) changes.bug_status = body.bugStatus;
      if (body.bugType !== undefined) changes.bug_type = body.bugType;
      if (body.bugSeverity !== undefined) changes.bug_severity = body.bugSeverity;
      if (body.bugPriority !== undefined) changes.bug_priority = body.bugPriority;
      if (body.bugRemark !== undefined) changes.bug_remark = body.bugRemark;
    }
    const done = isTask
      ? (changes.status ?? before.status) === TASK_DONE_STATUS
      : (changes.bug_status ?? before.bug_status) === BUG_DONE_STATUS;
    changes.completed_at = done ? (before.completed_at ?? now) : null;
    return changes;
  }

  function notify(record: TaskRecordRow | undefined, change: TaskChange) {
    if (record && deps.onChange) return deps.onChange(record, change);
    return Promise.resolve();
  }

  const insertNew = recordInserter(tasks, clock);

  return {
    fieldGroups,
    recordFor,

    async taskView(user: AuthUser, appId: number): Promise<TaskViewSetting> {
      await policy.assertCanView(user, appId);
      const settings = await tasks.settings(appId);
      return {
        appId,
        taskViewEnabled: settings?.task_view_enabled === 1,
        larkEnabled: deps.larkEnabled,
        larkTaskListUrl: settings?.lark_task_list_url ?? null,
        larkTableUrl: settings?.lark_table_url ?? null,
      };
    },

    async saveTaskView(user: AuthUser, appId: number, enabled: boolean): Promise<TaskViewSetting> {
      await policy.assertCanView(user, appId);
      await assertAppExists(appId);
      await tasks.saveTaskView(appId, enabled, clock.now());
      return this.taskView(user, appId);
    },

    async list(
      user: AuthUser,
      query: z.infer<typeof tasksQuery>,
      link: FileLinker,
    ): Promise<{ rows: TaskRecord[]; total: number; extraInfo: TasksExtraInfo }> {
      await policy.assertCanView(user, query.appId);
      const filter = {
        appId: query.appId,
        recordType: query.recordType || undefined,
        status: query.status || undefined,
        assigneeId: query.assigneeId,
        keyword: query.keyword || undefined,
      };
      const [{ rows, total }, extraInfo] = await Promise.all([
        tasks.list(filter, (query.pageNo - 1) * query.pageSize, query.pageSize),
        tasks.counts(query.appId),
      ]);
      return { rows: await present(rows, link), total, extraInfo };
    },

    async one(user: AuthUser, guid: string, link: FileLinker): Promise<TaskRecord> {
      const record = await recordFor(user, guid, 'view');
      return (await present([record], link))[0] as TaskRecord;
    },

    /** Creates a task (not_started, priority high by default) or a bug (new); a repeated clientToken answers the first record. */
    async create(user: AuthUser, body: z.infer<typeof createTaskBody>, link: FileLinker): Promise<TaskRecord> {
      await policy.assertCanEdit(user, body.appId);
      await assertAppExists(body.appId);
      if (body.clientToken) {
        const earlier = await tasks.findByClientToken(body.appId, body.clientToken);
        if (earlier) return this.one(user, earlier.guid, link);
      }
      await checkForm(body);
      const isTask = body.recordType === 'task';
      const { files, claim } = await resolveFiles(user, isTask ? body.attachFiles : body.bugFiles, []);
      const fields = {
        app_id: body.appId,
        record_type: body.recordType,
        summary: body.summary.trim(),
        description: body.description,
        assignee_ids: taskColumns.assigneeIds.encode(body.assigneeIds),
        start_at: body.startAt ?? null,
        due: body.due ?? null,
        // Status is chosen only when editing (SPEC §4).
        priority: isTask ? (body.priority ?? NEW_TASK_PRIORITY) : null,
        status: isTask ? NEW_TASK_STATUS : null,
        module_name: isTask ? null : body.moduleName?.trim() || null,
        bug_status: isTask ? null : NEW_BUG_STATUS,
        bug_type: isTask ? null : (body.bugType ?? null),
        bug_severity: isTask ? null : (body.bugSeverity ?? null),
        bug_priority: isTask ? null : (body.bugPriority ?? null),
        bug_remark: isTask ? null : (body.bugRemark ?? null),
        attach_files: taskColumns.attachFiles.encode(files),
        client_token: body.clientToken ?? null,
      };
      let guid: string;
      try {
        guid = await insertNew(fields, user.userId);
      } catch (error) {
        // Two requests with one clientToken at the same moment: the loser answers the winner's record.
        if (body.clientToken && isUniqueViolation(error)) {
          const winner = await tasks.findByClientToken(body.appId, body.clientToken);
          if (winner) return this.one(user, winner.guid, link);
        }
        throw error;
      }
      for (const id of claim) await deps.uploads.markRegistered(id);
      await notify(await tasks.findByGuid(guid), 'created');
      return this.one(user, guid, link);
    },

    /**
     * Edits a record; any status may be chosen. With recordVersion, a record changed meanwhile is refused — except
     * by the sync's mark of a deletion in Lark (see editBasis): then the edit is saved and the record kept here.
     */
    async update(user: AuthUser, body: z.infer<typeof updateTaskBody>, link: FileLinker): Promise<TaskRecord> {
      let before = await permitted(user, body.guid, 'edit');
      if (Number(before.app_id) !== body.appId || before.record_type !== body.recordType)
        throw AppError.notFound(TaskMessages.recordNotFound);
      const seen = body.recordVersion ?? Number(before.record_version);
      let basis = await editBasis(before, body.recordVersion);
      await checkForm(body);
      for (let attempt = 0; ; attempt += 1) {
        const { files, claim } = await resolveFiles(
          user,
          before.record_type === 'task' ? body.attachFiles : body.bugFiles,
          taskColumns.attachFiles.decode(before.attach_files),
        );
        const now = clock.now();
        const changes = formChanges(before, body, files, now);
        const history = diff(before, changes, user.userId, now);
        if (basis === 'beforeLarkDeletion' && before.lark_deleted === 'removed') {
          // Nothing changed: nothing Lark never got, so the deletion holds.
          if (history.length === 0) throw AppError.badRequest(TaskMessages.deletedInLark);
          const kept = keptHere(before.record_type, now);
          Object.assign(changes, kept.changes);
          history.push(kept.history);
        }
        if (history.length === 0) return this.one(user, before.guid, link);
        if (
          await tasks.update(
            Number(before.id),
            Number(before.record_version),
            { ...changes, updated_by: user.userId, update_time: now },
            history,
          )
        ) {
          for (const id of claim) await deps.uploads.markRegistered(id);
          await notify(await tasks.findByGuid(before.guid), 'updated');
          return this.one(user, before.guid, link);
        }
        // Changed meanwhile: saved anyway (once) only if that change was the sync's mark of a deletion in Lark.
        const fresh = await tasks.findByGuid(before.guid);
        if (!fresh || attempt > 0) throw AppError.conflict(TaskMessages.staleRecord);
        basis = await editBasis(fresh, seen);
        before = fresh;
      }
    },

    async history(user: AuthUser, guid: string): Promise<TaskHistoryEntry[]> {
      const record = await recordFor(user, guid, 'view');
      const rows = await tasks.historyOf(Number(record.id));
      return rows.map((r) => ({
        id: Number(r.id),
        recordVersion: r.record_version,
        actorId: r.actor_id === null ? null : Number(r.actor_id),
        actorName: r.actorName ?? null,
        source: r.source,
        field: r.field,
        oldValue: r.old_value,
        newValue: r.new_value,
        createTime: r.create_time,
      }));
    },

    /** People an item can be assigned to. */
    async allUsers(): Promise<AssignableUser[]> {
      const rows = await tasks.allUsers();
      return rows.map((r) => ({ userId: Number(r.id), name: r.username, avatar: null }));
    },

    /**
     * A bug from a tester's feedback (modules/feedback): the same insert, history and change path as every new bug
     * (the Lark sync takes it like any other). The creator is the signed-in tester, or nobody for an anonymous one.
     */
    async createFeedbackBug(input: {
      appId: number;
      versionId: number;
      summary: string;
      description: string;
      assigneeIds: number[];
      creatorId: number | null;
      files: StoredTaskFile[];
    }): Promise<TaskRecordRow> {
      const guid = await insertNew(
        {
          app_id: input.appId,
          record_type: 'bug',
          summary: input.summary,
          description: input.description,
          assignee_ids: taskColumns.assigneeIds.encode(input.assigneeIds),
          start_at: null,
          due: null,
          priority: null,
          status: null,
          module_name: null,
          bug_status: NEW_BUG_STATUS,
          bug_type: null,
          bug_severity: null,
          bug_priority: null,
          bug_remark: null,
          attach_files: taskColumns.attachFiles.encode(input.files),
          client_token: null,
          version_id: input.versionId,
        },
        input.creatorId,
      );
      const created = await tasks.findByGuid(guid);
      if (!created) throw AppError.notFound(TaskMessages.recordNotFound);
      await notify(created, 'created');
      return created;
    },

    notify,
  };
}
export type TasksService = ReturnType<typeof createTasksService>;
