import {
  LarkTaskMessages,
  TaskFieldDefaults,
  TaskMessages,
  type FieldGroups,
  type LarkAuthStatus,
  type LarkSyncCounts,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LarkBitableClient } from '../../integrations/lark/lark-bitable.ts';
import type { LarkClient } from '../../integrations/lark/lark-client.ts';
import { larkTaskErrorMessage } from '../../integrations/lark/lark-task-errors.ts';
import type { LarkTaskClient } from '../../integrations/lark/lark-task.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { TaskChange } from '../tasks/tasks.service.ts';
import type { TaskRecordRow } from '../tasks/tasks.repository.ts';
import { BUG_SELECTS, bugTableFields, groupFromOptions, TASK_CUSTOM_FIELDS } from './lark-fields.ts';
import type { SyncRunner } from './sync-runner.ts';
import type { createPullJob, createPushJob } from './tasks-sync.jobs.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';

/** field_list reads the linked table's options at most this often (a refresh reads them again). */
const OPTIONS_TTL_MS = 30_000;

export interface TasksSyncServiceDeps {
  lark: LarkClient;
  taskClient: LarkTaskClient;
  bitableClient: LarkBitableClient;
  sync: TasksSyncRepository;
  runner: SyncRunner;
  policy: AppsPolicy;
  jobs: JobQueue;
  pushJob: ReturnType<typeof createPushJob>;
  pull: ReturnType<typeof createPullJob>;
  clock: Clock;
  /** Asks Lark for the base's change events (drive subscribe), so an edit there is pulled at once. */
  subscribeBase?: (appToken: string) => Promise<void>;
  log?: (message: string) => void;
}

/** Lark failures in a call the user made: told in Chinese (what to grant, when it is a permission). */
async function lark<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw AppError.badRequest(larkTaskErrorMessage(error));
  }
}

/** SPEC §7 Tasks, the Lark side: linking an app to a task list and a Bitable, and keeping them in step. */
export function createTasksSyncService(deps: TasksSyncServiceDeps) {
  const { sync, clock } = deps;
  const optionCache = new Map<number, { at: number; groups: Partial<FieldGroups> | null }>();

  async function status(appId: number, problem: string | null): Promise<LarkAuthStatus> {
    const s = await sync.settings(appId);
    return {
      larkEnabled: true,
      larkTaskListUrl: s?.lark_task_list_url ?? null,
      larkTableUrl: s?.lark_table_url ?? null,
      problem,
    };
  }

  async function appNameOf(appId: number): Promise<string> {
    const name = await sync.appName(appId);
    if (!name) throw AppError.notFound(TaskMessages.recordNotFound);
    return name;
  }

  async function readOptions(appId: number): Promise<Partial<FieldGroups> | null> {
    const s = await sync.settings(appId);
    if (!s?.lark_app_token || !s.lark_table_id) return null;
    const fields = await deps.bitableClient.listFields(s.lark_app_token, s.lark_table_id);
    const groups: Partial<FieldGroups> = {};
    for (const [group, column] of BUG_SELECTS) {
      const field = fields.find((f) => f.field_name === column && f.type === 3);
      if (field) groups[group] = groupFromOptions(group, field.property?.options ?? []);
    }
    return groups;
  }

  return {
    /** The linked Bitable's select options for field_list (the spec's lists when unlinked or unreachable). */
    async fieldOptions(appId: number): Promise<Partial<FieldGroups> | null> {
      const cached = optionCache.get(appId);
      if (cached && clock.now() - cached.at < OPTIONS_TTL_MS) return cached.groups;
      const groups = await readOptions(appId).catch(() => null);
      optionCache.set(appId, { at: clock.now(), groups });
      return groups;
    },

    /** After every local change of a linked record: a durable push (per version, so a repeat is not queued twice). */
    async onChange(record: TaskRecordRow, change: TaskChange): Promise<void> {
      const s = await sync.settings(Number(record.app_id));
      const linked = record.record_type === 'task' ? Boolean(s?.lark_task_list_guid) : Boolean(s?.lark_app_token);
      if (!linked || record.lark_deleted) return;
      if (change === 'comment') {
        if (record.record_type === 'task')
          await deps.jobs.enqueue(deps.pushJob, { recordId: Number(record.id), comments: true });
        return;
      }
      await deps.jobs.enqueue(
        deps.pushJob,
        { recordId: Number(record.id), comments: true },
        { dedupeKey: `tasks-sync:push:${Number(record.id)}:${Number(record.record_version)}` },
      );
    },

    /** Whether our Lark app answers (its credentials), and the app's links. */
    async larkAuth(user: AuthUser, appId: number): Promise<LarkAuthStatus> {
      await deps.policy.assertCanView(user, appId);
      await appNameOf(appId);
      try {
        await deps.lark.tenantToken();
        return await status(appId, null);
      } catch (error) {
        return status(appId, larkTaskErrorMessage(error));
      }
    },

    /** A Lark task list for the app (its edit users who signed in with Lark may edit it), with 状态 and 优先级 fields. */
    async createTaskList(user: AuthUser, appId: number): Promise<LarkAuthStatus> {
      await deps.policy.assertCanEdit(user, appId);
      const name = await appNameOf(appId);
      if ((await sync.settings(appId))?.lark_task_list_guid) throw AppError.badRequest(LarkTaskMessages.taskListExists);
      const editors = await sync.editorOpenIds(appId);
      const own = (await sync.openIdsOf([user.userId])).get(user.userId);
      const list = await lark(() =>
        deps.taskClient.createTasklist(`${name} 任务`.slice(0, 100), [...new Set([...editors, ...(own ? [own] : [])])]),
      );
      await lark(() =>
        deps.taskClient.createSelectField(
          list.guid,
          TASK_CUSTOM_FIELDS.status,
          TaskFieldDefaults.status.map((o) => o.label),
        ),
      );
      await lark(() =>
        deps.taskClient.createSelectField(
          list.guid,
          TASK_CUSTOM_FIELDS.priority,
          TaskFieldDefaults.priority.map((o) => o.label),
        ),
      );
      if (!(await sync.saveLink(appId, { lark_task_list_guid: list.guid, lark_task_list_url: list.url }, clock.now())))
        throw AppError.badRequest(LarkTaskMessages.taskListExists);
      // Existing tasks go to the new list, and the schedule starts reading it.
      await deps.pull.schedule(appId, clock.now());
      return status(appId, null);
    },

    /** A Bitable base with a bug table (the spec's options in its select columns), owned by our app. */
    async createBitable(user: AuthUser, appId: number): Promise<LarkAuthStatus> {
      await deps.policy.assertCanEdit(user, appId);
      const name = await appNameOf(appId);
      if ((await sync.settings(appId))?.lark_app_token) throw AppError.badRequest(LarkTaskMessages.tableExists);
      const base = await lark(() => deps.bitableClient.createBase(`${name} 缺陷`));
      const tableId = await lark(() => deps.bitableClient.createTable(base.appToken, '缺陷', bugTableFields()));
      if (
        !(await sync.saveLink(
          appId,
          { lark_app_token: base.appToken, lark_table_id: tableId, lark_table_url: `${base.url}?table=${tableId}` },
          clock.now(),
        ))
      )
        throw AppError.badRequest(LarkTaskMessages.tableExists);
      optionCache.delete(appId);
      // Without the subscription the 5-minute schedule still brings Lark's edits; so a refusal only gets logged.
      await deps
        .subscribeBase?.(base.appToken)
        .catch((error: unknown) => deps.log?.(`subscribing to the bug table's changes failed: ${String(error)}`));
      await deps.pull.schedule(appId, clock.now());
      return status(appId, null);
    },

    /** A change event of a Bitable base: the apps whose bug table it holds are pulled now, not at their next slot. */
    async baseChanged(appToken: string, eventId: string): Promise<number> {
      const apps = await sync.appsOfBase(appToken);
      for (const appId of apps) await deps.pull.onEvent(appId, eventId);
      return apps.length;
    },

    /** Refresh: the app's task list and table now, both ways (what the schedule does every few minutes). */
    async refresh(user: AuthUser, appId: number): Promise<LarkSyncCounts> {
      await deps.policy.assertCanView(user, appId);
      const s = await sync.settings(appId);
      if (!s?.lark_task_list_guid && !s?.lark_app_token) throw AppError.badRequest(LarkTaskMessages.notLinked);
      optionCache.delete(appId);
      return lark(() => deps.runner.syncApp(appId));
    },

    /** sync_comments: one task's comments both ways now. */
    async syncComments(user: AuthUser, taskGuid: string): Promise<LarkSyncCounts> {
      const record = await sync.findByGuid(taskGuid);
      if (!record || !(await deps.policy.accessOf(user, Number(record.app_id))))
        throw AppError.notFound(TaskMessages.recordNotFound);
      if (record.record_type !== 'task' || !record.lark_guid || record.lark_deleted)
        return { pushed: 0, pulled: 0, imported: 0, comments: 0, attachments: 0, failed: 0 };
      const moved = await lark(() => deps.runner.syncComments(record, record.lark_guid as string));
      return { pushed: 0, pulled: 0, imported: 0, comments: moved.pushed + moved.pulled, attachments: 0, failed: 0 };
    },
  };
}
export type TasksSyncService = ReturnType<typeof createTasksSyncService>;
