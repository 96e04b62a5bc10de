import { randomUUID } from 'node:crypto';
import { LarkTaskMessages } from '@release/contract';
import type { Clock } from '../../lib/clock.ts';
import type { BitableRecordRead, LarkBitableClient } from '../../integrations/lark/lark-bitable.ts';
import { LarkApiError } from '../../integrations/lark/lark-client.ts';
import { isLarkFailure } from '../../integrations/lark/lark-task-errors.ts';
import type { LarkTask, LarkTaskClient } from '../../integrations/lark/lark-task.ts';
import { taskColumns } from '../tasks/task-columns.ts';
import type { TaskRecordRow } from '../tasks/tasks.repository.ts';
import type { TasksDirectory } from '../tasks/tasks-directory.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { createAttachmentSync, createSpacer } from './attachment-sync.ts';
import { createBugAttachmentSync } from './bug-attachment-sync.ts';
import { createBugSide, type BugSide } from './bug-side.ts';
import { createCommentSync } from './comment-sync.ts';
import { createLarkDeletion } from './lark-deletion.ts';
import type { LarkSide, SyncedColumns, SyncEngine, SyncOutcome } from './sync-engine.ts';
import { createTaskSide, type TaskSide } from './task-side.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';

export interface SyncCounts {
  pushed: number;
  pulled: number;
  imported: number;
  comments: number;
  attachments: number;
  /** Records this run could not sync for a reason of their own (each noted in its history); the others went on. */
  failed: number;
}

const noCounts = (): SyncCounts => ({ pushed: 0, pulled: 0, imported: 0, comments: 0, attachments: 0, failed: 0 });

export interface SyncRunnerDeps {
  tasks: TasksDirectory;
  sync: TasksSyncRepository;
  engine: SyncEngine;
  taskClient: LarkTaskClient;
  bitableClient: LarkBitableClient;
  clock: Clock;
  larkAppId: string;
  blobs: BlobStore;
  log?: (message: string) => void;
}

const missing = (error: unknown) => error instanceof LarkApiError && (error.code === 1470404 || error.code === 1254043);

/** Runs the sync of one record (a push job) or of a whole app (the scheduled pull and refresh). */
export function createSyncRunner(deps: SyncRunnerDeps) {
  const syncComments = createCommentSync({
    client: deps.taskClient,
    sync: deps.sync,
    clock: deps.clock,
    larkAppId: deps.larkAppId,
  });
  // Downloads from Lark, tasks' and bugs' alike, are spaced 1 s apart.
  const spaced = createSpacer();
  const syncAttachments = createAttachmentSync({
    client: deps.taskClient,
    blobs: deps.blobs,
    sync: deps.sync,
    clock: deps.clock,
    spaced,
  });
  const syncBugFiles = createBugAttachmentSync({
    client: deps.bitableClient,
    blobs: deps.blobs,
    sync: deps.sync,
    clock: deps.clock,
    spaced,
  });
  const goneInLark = createLarkDeletion({ tasks: deps.tasks, sync: deps.sync, clock: deps.clock });

  /**
   * One record's part of an app's sync. Lark's failures (refusals, Lark not reachable) stop the run as before; any
   * other error is this record's own (say an attachment missing from the store): it is counted and noted in the
   * record's history (once per reason), and the other records still sync.
   */
  async function guarded<T>(
    recordId: number | null,
    counts: SyncCounts,
    work: () => Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      if (isLarkFailure(error)) throw error;
      counts.failed += 1;
      const record = recordId === null ? null : await deps.sync.findById(recordId);
      const detail = error instanceof Error ? error.message : String(error);
      if (record)
        await deps.sync.noteOnce(record, {
          actor_id: null,
          source: 'lark',
          field: 'larkSyncFailed',
          old_value: null,
          new_value: LarkTaskMessages.recordFailed(detail),
          create_time: deps.clock.now(),
          comment_id: null,
        });
      else deps.log?.(`a record from Lark could not be taken in: ${detail}`);
      return undefined;
    }
  }

  /** A linked record whose Lark item is gone: counted as a change pulled from Lark when it was marked. */
  async function gone(record: TaskRecordRow, counts: SyncCounts): Promise<void> {
    if ((await goneInLark(record)) !== 'none') counts.pulled += 1;
  }

  /** Reconciles a linked record; a push that finds the Lark item deleted meanwhile (not found) marks it gone. */
  async function reconcileLinked<R>(
    side: LarkSide<R>,
    record: TaskRecordRow,
    remote: R,
    counts: SyncCounts,
  ): Promise<void> {
    const outcome = await deps.engine
      .reconcile(side, record, remote)
      .catch(async (e: unknown): Promise<SyncOutcome> => {
        if (!missing(e)) throw e;
        await gone(record, counts);
        return 'none';
      });
    count(counts, outcome);
  }

  /** Comments and attachments of a linked task, both ways. */
  async function extras(record: TaskRecordRow, counts: SyncCounts) {
    if (!record.lark_guid) return;
    const c = await syncComments(record, record.lark_guid);
    const a = await syncAttachments(record, record.lark_guid);
    counts.comments += c.pushed + c.pulled;
    counts.attachments += a.pushed + a.pulled;
  }

  /** A linked bug's attachments against its record's 附件 cell (`remote` when just read, else read now). */
  async function bugExtras(recordId: number, remote: BitableRecordRead | null, counts: SyncCounts) {
    const record = await deps.sync.findById(recordId);
    if (!record?.lark_record_id || record.lark_deleted) return;
    if (!remote && taskColumns.attachFiles.decode(record.attach_files).length === 0) return;
    const s = await deps.sync.settings(Number(record.app_id));
    if (!s?.lark_app_token || !s.lark_table_id) return;
    const item =
      remote?.record_id === record.lark_record_id
        ? remote
        : await deps.bitableClient.getRecord(s.lark_app_token, s.lark_table_id, record.lark_record_id);
    const moved = await syncBugFiles(record, item, s.lark_app_token, s.lark_table_id);
    counts.attachments += moved.pushed + moved.pulled;
  }

  async function sidesOf(appId: number): Promise<{ task: TaskSide | null; bug: BugSide | null }> {
    const s = await deps.sync.settings(appId);
    return {
      task: s?.lark_task_list_guid
        ? createTaskSide({
            client: deps.taskClient,
            sync: deps.sync,
            clock: deps.clock,
            tasklistGuid: s.lark_task_list_guid,
          })
        : null,
      bug:
        s?.lark_app_token && s.lark_table_id
          ? createBugSide({
              client: deps.bitableClient,
              sync: deps.sync,
              clock: deps.clock,
              appToken: s.lark_app_token,
              tableId: s.lark_table_id,
            })
          : null,
    };
  }

  /** A record made in Lark: a new local record whose first version is already in step. */
  async function importRecord(
    appId: number,
    type: 'task' | 'bug',
    columns: SyncedColumns,
    link: { lark_guid?: string; lark_record_id?: string },
    larkUpdatedAt: number,
    creatorId: number | null,
  ): Promise<number> {
    const now = deps.clock.now();
    return deps.tasks.insert(
      {
        guid: randomUUID(),
        app_id: appId,
        record_type: type,
        ...columns,
        creator_id: creatorId,
        attach_files: '[]',
        client_token: null,
        lark_guid: link.lark_guid ?? null,
        lark_record_id: link.lark_record_id ?? null,
        lark_synced_version: 1,
        lark_updated_at: larkUpdatedAt,
        updated_by: null,
        create_time: now,
        update_time: now,
      },
      [
        {
          actor_id: null,
          source: 'lark',
          field: 'created',
          old_value: null,
          new_value: columns.summary,
          create_time: now,
          comment_id: null,
        },
      ],
    );
  }

  async function pullTasks(appId: number, side: TaskSide, counts: SyncCounts, withComments: boolean) {
    const remoteList = await deps.taskClient.listTasklistTasks(
      (await deps.sync.settings(appId))?.lark_task_list_guid ?? '',
    );
    const records = await deps.sync.recordsOf(appId, 'task');
    const byGuid = new Map(records.filter((r) => r.lark_guid).map((r) => [r.lark_guid as string, r]));
    for (const summary of remoteList) {
      const known = byGuid.get(summary.guid);
      await guarded(known ? Number(known.id) : null, counts, async () => {
        const remote = await deps.taskClient.getTask(summary.guid);
        const record = byGuid.get(remote.guid);
        if (!record) {
          await importRecord(
            appId,
            'task',
            await side.importColumns(remote),
            { lark_guid: remote.guid },
            Number(remote.updated_at),
            await side.creatorOf(remote as LarkTask & { creator?: { id: string; type: string } }),
          );
          counts.imported += 1;
        } else {
          await reconcileLinked(side.side, record, remote, counts);
        }
      });
    }
    // Linked tasks the list no longer has: deleted in Lark when Lark says not found, else compared as usual.
    const listed = new Set(remoteList.map((t) => t.guid));
    for (const record of records.filter((r) => r.lark_guid && !listed.has(r.lark_guid))) {
      await guarded(Number(record.id), counts, async () => {
        const remote = await deps.taskClient
          .getTask(record.lark_guid as string)
          .catch((e: unknown) => (missing(e) ? null : Promise.reject(e)));
        if (remote === null) await gone(record, counts);
        else await reconcileLinked(side.side, record, remote, counts);
      });
    }
    for (const record of records.filter((r) => !r.lark_guid))
      await guarded(Number(record.id), counts, async () =>
        count(counts, await deps.engine.reconcile(side.side, record, null)),
      );
    if (!withComments) return;
    for (const record of await deps.sync.recordsOf(appId, 'task'))
      await guarded(Number(record.id), counts, () => extras(record, counts));
  }

  async function pullBugs(appId: number, side: BugSide, counts: SyncCounts) {
    const s = await deps.sync.settings(appId);
    const remote = await deps.bitableClient.searchAll(s?.lark_app_token ?? '', s?.lark_table_id ?? '');
    const records = await deps.sync.recordsOf(appId, 'bug');
    const byRecordId = new Map(records.filter((r) => r.lark_record_id).map((r) => [r.lark_record_id as string, r]));
    const byGuid = new Map(records.map((r) => [r.guid, r]));
    const seen = new Set<number>();
    for (const item of remote) {
      const localId = side.localIdOf(item);
      const record = byRecordId.get(item.record_id) ?? (localId ? byGuid.get(localId) : undefined);
      if (!record) {
        const id = await guarded(null, counts, async () => {
          const made = await importRecord(
            appId,
            'bug',
            await side.importColumns(item),
            { lark_record_id: item.record_id },
            side.side.updatedAt(item),
            null,
          );
          counts.imported += 1;
          return made;
        });
        if (id !== undefined) await guarded(id, counts, () => bugExtras(id, item, counts));
        continue;
      }
      seen.add(Number(record.id));
      // A record created by a push whose answer was lost: link it before comparing.
      const linked = record.lark_record_id ? record : { ...record, lark_record_id: item.record_id };
      await guarded(Number(record.id), counts, async () => {
        await reconcileLinked(side.side, linked, item, counts);
        await bugExtras(Number(record.id), item, counts);
      });
    }
    // Linked bugs the table no longer has: deleted in Lark when Lark says not found (1254043).
    const inTable = new Set(remote.map((item) => item.record_id));
    for (const record of records.filter(
      (r) => r.lark_record_id && !inTable.has(r.lark_record_id) && !seen.has(Number(r.id)),
    )) {
      await guarded(Number(record.id), counts, async () => {
        const item = await deps.bitableClient
          .getRecord(s?.lark_app_token ?? '', s?.lark_table_id ?? '', record.lark_record_id as string)
          .catch((e: unknown) => (missing(e) ? null : Promise.reject(e)));
        if (item === null) await gone(record, counts);
        else await reconcileLinked(side.side, record, item, counts);
      });
    }
    for (const record of records.filter((r) => !r.lark_record_id && !seen.has(Number(r.id)))) {
      await guarded(Number(record.id), counts, async () => {
        count(counts, await deps.engine.reconcile(side.side, record, null));
        await bugExtras(Number(record.id), null, counts);
      });
    }
  }

  const running = new Map<number, Promise<unknown>>();

  function count(counts: SyncCounts, outcome: 'none' | 'pushed' | 'pulled') {
    if (outcome === 'pushed') counts.pushed += 1;
    if (outcome === 'pulled') counts.pulled += 1;
  }

  return {
    sidesOf,
    syncComments,

    /** One record against Lark (a local change's push job); comments too for tasks when asked. */
    async syncRecord(record: TaskRecordRow, withComments: boolean): Promise<SyncCounts> {
      const counts = noCounts();
      // Deleted in Lark (removed, or kept here with its unsynced edit): never pushed or re-created.
      if (record.lark_deleted) return counts;
      const sides = await sidesOf(Number(record.app_id));
      if (record.record_type === 'task' && sides.task) {
        const remote = record.lark_guid
          ? await deps.taskClient
              .getTask(record.lark_guid)
              .catch((e: unknown) => (missing(e) ? null : Promise.reject(e)))
          : null;
        if (record.lark_guid && remote === null) await gone(record, counts);
        else if (remote) await reconcileLinked(sides.task.side, record, remote, counts);
        else count(counts, await deps.engine.reconcile(sides.task.side, record, null));
        const fresh = await deps.sync.findById(Number(record.id));
        if (withComments && fresh && !fresh.lark_deleted) await extras(fresh, counts);
      } else if (record.record_type === 'bug' && sides.bug) {
        const s = await deps.sync.settings(Number(record.app_id));
        const remote = record.lark_record_id
          ? await deps.bitableClient
              .getRecord(s?.lark_app_token ?? '', s?.lark_table_id ?? '', record.lark_record_id)
              .catch((e: unknown) => (missing(e) ? null : Promise.reject(e)))
          : null;
        if (record.lark_record_id && remote === null) await gone(record, counts);
        else if (remote) await reconcileLinked(sides.bug.side, record, remote, counts);
        else count(counts, await deps.engine.reconcile(sides.bug.side, record, null));
        await bugExtras(Number(record.id), remote, counts);
      }
      return counts;
    },

    /**
     * Every task and bug of the app against its task list and table: Lark's changes in, local ones out, new ones both
     * ways. One run per app at a time in this process (a refresh during the scheduled pull waits for it), so a task
     * made in Lark is taken in once.
     */
    syncApp(appId: number, withComments = true): Promise<SyncCounts> {
      const previous = running.get(appId) ?? Promise.resolve();
      const run = previous.catch(() => undefined).then(() => syncAppNow(appId, withComments));
      const tail = run.catch(() => undefined);
      running.set(appId, tail);
      void tail.then(() => {
        if (running.get(appId) === tail) running.delete(appId);
      });
      return run;
    },
  };

  async function syncAppNow(appId: number, withComments: boolean): Promise<SyncCounts> {
    const counts = noCounts();
    const sides = await sidesOf(appId);
    // A refusal on one side (say the base) does not hold up the other; the first one is reported.
    let failure: unknown = null;
    if (sides.task)
      await pullTasks(appId, sides.task, counts, withComments).catch((e: unknown) => {
        failure ??= e;
      });
    if (sides.bug)
      await pullBugs(appId, sides.bug, counts).catch((e: unknown) => {
        failure ??= e;
      });
    if (failure) throw failure;
    return counts;
  }
}
export type SyncRunner = ReturnType<typeof createSyncRunner>;
