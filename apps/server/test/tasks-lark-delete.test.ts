import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TaskMessages, type TaskComment, type TaskRecord } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { linkTasksToLark, type TasksLarkWorld } from './helpers/tasks-lark-world.ts';

const KEPT = '保留本地未同步的修改，不再与飞书同步';

/**
 * Holds the first outgoing request whose URL matches until `release` (the server runs in this process): a call the
 * server makes halfway through a save, so that a refresh can run in between, deterministically.
 */
function holdRequest(match: (url: string) => boolean) {
  const original = globalThis.fetch;
  let held = false;
  let reached!: () => void;
  let release!: () => void;
  const isReached = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!held && match(url)) {
      held = true;
      reached();
      await released;
    }
    return original(input, init);
  });
  return { reached: isReached, release: () => release(), restore: () => spy.mockRestore() };
}

describe.each(testDialects())('tasks and bugs deleted in Lark on %s', (dialect) => {
  let world: MessagingWorld;
  let t: TasksLarkWorld;

  beforeAll(async () => {
    world = await startMessagingWorld(dialect);
    world.lark.setRateLimit('task.get', null);
    t = await linkTasksToLark(world);
  });
  afterAll(async () => {
    await world?.close();
  });

  const larkTasksNamed = (summary: string) =>
    [...world.lark.tasks.tasks.values()].filter((x) => !x.deleted && x.summary === summary);
  const counts = async () =>
    ((await t.listed('task')) as unknown as { extraInfo: { taskCount: number; bugCount: number } }).extraInfo;

  it('a task deleted in Lark leaves the list after a refresh; its history and comments stay; it is never pushed or re-created', async () => {
    const record = await t.create('task', '飞书里删掉的任务');
    await t.call('/api/create_comment', { taskGuid: record.guid, content: '删除前的评论' });
    await world.runJobs();
    const before = await counts();
    world.lark.work.deleteTask({ openId: world.editor.openId, taskGuid: record.larkGuid ?? '' });

    const refreshed = await t.refresh();
    expect(refreshed.code).toBe(200);
    expect(refreshed.data.pulled).toBeGreaterThanOrEqual(1);
    expect((await t.listed('task')).data.map((r) => r.guid)).not.toContain(record.guid);
    expect((await counts()).taskCount).toBe(before.taskCount - 1);
    expect(await t.history(record)).toContainEqual(
      expect.objectContaining({ source: 'lark', field: 'deletedInLark', newValue: '已在飞书任务清单中删除' }),
    );
    expect(
      (await t.get<TaskComment[]>(`/api/comments?taskGuid=${record.guid}`)).body.data.map((c) => c.content),
    ).toEqual(['删除前的评论']);

    expect((await t.one(record)).larkDeleted).toBe('removed');
    const edit = await t.update(record, { summary: '删除后还想改' });
    expect(edit.body.msg).toBe(TaskMessages.deletedInLark);
    const creates = world.lark.requests.filter((r) => r.route === 'task.create').length;
    await t.refresh();
    await world.advance(5 * 60_000);
    await world.runJobs();
    expect(world.lark.requests.filter((r) => r.route === 'task.create')).toHaveLength(creates);
    expect(larkTasksNamed('飞书里删掉的任务')).toEqual([]);
    expect(await t.history(record)).not.toContainEqual(expect.objectContaining({ field: 'larkSyncFailed' }));
  });

  it('a local edit whose push finds the task deleted in Lark is kept here, unlinked, with the conflict in the history', async () => {
    const record = await t.create('task', '删除与修改同时');
    world.lark.work.deleteTask({ openId: world.editor.openId, taskGuid: record.larkGuid ?? '' });
    expect((await t.update(record, { summary: '删除后本地改' })).body.code).toBe(200);
    await world.runJobs();

    const kept = await t.one(record);
    expect(kept).toMatchObject({ summary: '删除后本地改', larkGuid: null, larkDeleted: 'kept' });
    expect((await t.listed('task')).data.map((r) => r.guid)).toContain(record.guid);
    expect(await t.history(record)).toContainEqual(
      expect.objectContaining({
        source: 'lark',
        field: 'conflict',
        oldValue: '已在飞书任务清单中删除',
        newValue: KEPT,
      }),
    );
    expect(await t.history(record)).not.toContainEqual(expect.objectContaining({ field: 'larkSyncFailed' }));
    // The deletion in Lark holds: neither the push nor later syncs create the task there again, even after another edit.
    expect((await t.update(kept, { summary: '再改一次' })).body.code).toBe(200);
    await world.runJobs();
    await t.refresh();
    expect(larkTasksNamed('删除后本地改')).toEqual([]);
    expect(larkTasksNamed('再改一次')).toEqual([]);
    expect((await t.one(record)).summary).toBe('再改一次');
  });

  it('a bug deleted in Lark leaves the list at the next pull; a bug edited here before the pull saw its deletion is kept', async () => {
    const gone = await t.create('bug', '表格里删掉的缺陷', { bugSeverity: 'high' });
    const edited = await t.create('bug', '表格里删掉但本地改过', { bugSeverity: 'low' });
    expect([gone.larkRecordId, edited.larkRecordId]).toEqual([
      expect.stringMatching(/^rec/),
      expect.stringMatching(/^rec/),
    ]);
    for (const r of [gone, edited])
      world.lark.work.deleteRecord({
        openId: world.editor.openId,
        appToken: t.appToken,
        tableId: t.tableId,
        recordId: r.larkRecordId ?? '',
      });
    // The local edit is saved but its push has not run when the pull notices the deletions.
    expect((await t.update(edited, { bugSeverity: 'fatal' })).body.code).toBe(200);
    expect((await t.refresh()).code).toBe(200);

    const bugs = (await t.listed('bug')).data;
    expect(bugs.map((r) => r.guid)).not.toContain(gone.guid);
    expect(bugs.find((r) => r.guid === edited.guid)).toMatchObject({ bugSeverity: 'fatal', larkRecordId: null });
    expect(await t.history(gone)).toContainEqual(
      expect.objectContaining({ source: 'lark', field: 'deletedInLark', newValue: '已在飞书多维表格中删除' }),
    );
    expect(await t.history(edited)).toContainEqual(
      expect.objectContaining({
        source: 'lark',
        field: 'conflict',
        oldValue: '已在飞书多维表格中删除',
        newValue: KEPT,
      }),
    );
    // The queued push of that edit finds nothing to do, and no row comes back into the table.
    await world.runJobs();
    await t.refresh();
    expect(tableTexts().some((cells) => cells.includes('表格里删掉'))).toBe(false);
    expect(await t.history(edited)).not.toContainEqual(expect.objectContaining({ field: 'larkSyncFailed' }));
    const bug = (await t.get<TaskRecord>(`/api/task?taskGuid=${gone.guid}`)).body.data;
    expect((await t.update(bug, { bugSeverity: 'low' })).body.msg).toBe(TaskMessages.deletedInLark);
  });

  // An edit saved around the refresh that finds its record deleted in Lark (decisions: "An edit saved around a deletion in Lark").
  const tableTexts = () => (t.table()?.records ?? []).map((r) => JSON.stringify([...r.cells.values()]));
  const listedGuids = async (type: 'task' | 'bug') => (await t.listed(type)).data.map((r) => r.guid);
  /** The drawer's save: the form as the drawer sends it, with the recordVersion it was opened at. */
  const save = (opened: TaskRecord, change: Record<string, unknown>) =>
    t.update(opened, { recordVersion: opened.recordVersion, ...change });

  it('a task: the drawer was opened before the refresh removed it; the save is kept here, unlinked, with the conflict in its history, and not sent to Lark', async () => {
    const opened = await t.create('task', '抽屉打开时还在');
    await t.call('/api/create_comment', { taskGuid: opened.guid, content: '删除前的评论' });
    await world.runJobs();
    const reopened = await t.one(opened);
    world.lark.work.deleteTask({ openId: world.editor.openId, taskGuid: opened.larkGuid ?? '' });
    expect((await t.refresh()).code).toBe(200);
    expect(await listedGuids('task')).not.toContain(opened.guid);

    const saved = await save(reopened, { summary: '抽屉里改的标题' });
    expect(saved.body).toMatchObject({
      code: 200,
      data: { summary: '抽屉里改的标题', larkDeleted: 'kept', larkGuid: null },
    });
    expect(await listedGuids('task')).toContain(opened.guid);
    const history = await t.history(opened);
    expect(history).toContainEqual(
      expect.objectContaining({
        source: 'local',
        field: 'summary',
        oldValue: '抽屉打开时还在',
        newValue: '抽屉里改的标题',
      }),
    );
    expect(history).toContainEqual(
      expect.objectContaining({
        source: 'lark',
        field: 'conflict',
        oldValue: '已在飞书任务清单中删除',
        newValue: KEPT,
      }),
    );
    expect(
      (await t.get<TaskComment[]>(`/api/comments?taskGuid=${opened.guid}`)).body.data.map((c) => c.content),
    ).toEqual(['删除前的评论']);

    // The deletion holds in Lark: nothing is created there, now or at later syncs, and nothing fails.
    const creates = world.lark.requests.filter((r) => r.route === 'task.create').length;
    await world.runJobs();
    await t.refresh();
    await world.advance(5 * 60_000);
    await world.runJobs();
    expect(world.lark.requests.filter((r) => r.route === 'task.create')).toHaveLength(creates);
    expect(larkTasksNamed('抽屉里改的标题')).toEqual([]);
    expect(await t.history(opened)).not.toContainEqual(expect.objectContaining({ field: 'larkSyncFailed' }));
    expect(await t.one(opened)).toMatchObject({ summary: '抽屉里改的标题', larkDeleted: 'kept' });
  });

  it('a bug: the same, and its row does not come back into the table', async () => {
    const opened = await t.create('bug', '表格里被删的缺陷', { bugSeverity: 'low' });
    world.lark.work.deleteRecord({
      openId: world.editor.openId,
      appToken: t.appToken,
      tableId: t.tableId,
      recordId: opened.larkRecordId ?? '',
    });
    expect((await t.refresh()).code).toBe(200);
    expect(await listedGuids('bug')).not.toContain(opened.guid);

    const saved = await save(opened, { bugSeverity: 'fatal', bugFiles: [] });
    expect(saved.body).toMatchObject({
      code: 200,
      data: { bugSeverity: 'fatal', larkDeleted: 'kept', larkRecordId: null },
    });
    expect(await listedGuids('bug')).toContain(opened.guid);
    expect(await t.history(opened)).toContainEqual(
      expect.objectContaining({
        source: 'lark',
        field: 'conflict',
        oldValue: '已在飞书多维表格中删除',
        newValue: KEPT,
      }),
    );
    await world.runJobs();
    await t.refresh();
    expect(tableTexts().some((cells) => cells.includes('表格里被删的缺陷'))).toBe(false);
  });

  it('a save in flight while the refresh marks the task deleted in Lark is kept the same way (not refused as changed by someone else)', async () => {
    const opened = await t.create('task', '保存途中被删');
    world.lark.work.deleteTask({ openId: world.editor.openId, taskGuid: opened.larkGuid ?? '' });
    // The save reads the record, then asks Lark for the table's options (expired after 30 s): the refresh runs there.
    await world.advance(31_000);
    const hold = holdRequest(
      (url) => url.startsWith(world.lark.url) && url.includes(`/apps/${t.appToken}/tables/${t.tableId}/fields`),
    );
    try {
      const saving = save(opened, { summary: '保存途中改的' });
      await hold.reached;
      expect((await t.refresh()).code).toBe(200);
      expect((await t.history(opened)).map((h) => h.field)).toContain('deletedInLark');
      hold.release();
      expect((await saving).body).toMatchObject({
        code: 200,
        data: { summary: '保存途中改的', larkDeleted: 'kept', larkGuid: null },
      });
    } finally {
      hold.release();
      hold.restore();
    }
    expect(await listedGuids('task')).toContain(opened.guid);
    expect(await t.history(opened)).toContainEqual(expect.objectContaining({ field: 'conflict', newValue: KEPT }));
  });

  it('an edit whose push found the task deleted, then another save from the list read before that push: saved, not refused as changed by someone else', async () => {
    const opened = await t.create('task', '推送时发现已删');
    world.lark.work.deleteTask({ openId: world.editor.openId, taskGuid: opened.larkGuid ?? '' });
    const first = await save(opened, { summary: '第一次改' });
    expect(first.body).toMatchObject({ code: 200, data: { larkDeleted: null } });
    await world.runJobs();
    expect(await t.one(opened)).toMatchObject({ larkDeleted: 'kept', larkGuid: null });

    const second = await save(first.body.data, { summary: '第二次改' });
    expect(second.body).toMatchObject({ code: 200, data: { summary: '第二次改', larkDeleted: 'kept' } });
    expect((await t.history(opened)).filter((h) => h.field === 'summary').map((h) => h.newValue)).toEqual([
      '第一次改',
      '第二次改',
    ]);
    await world.runJobs();
    expect(larkTasksNamed('第二次改')).toEqual([]);
  });

  it('still refused, with the reason: a removed record edited from its removed version or without a version, a save that changes nothing, and an edit older than someone else’s', async () => {
    const opened = await t.create('task', '只读的已删任务');
    world.lark.work.deleteTask({ openId: world.editor.openId, taskGuid: opened.larkGuid ?? '' });
    await t.refresh();
    const removed = await t.one(opened);
    expect(removed.larkDeleted).toBe('removed');
    for (const attempt of [
      save(removed, { summary: '看到删除后还改' }),
      t.update(removed, { summary: '脚本改' }),
      save(opened, {}),
    ]) {
      expect((await attempt).body).toMatchObject({ code: 400, msg: TaskMessages.deletedInLark });
    }
    expect(await t.one(opened)).toMatchObject({
      summary: '只读的已删任务',
      larkDeleted: 'removed',
      recordVersion: removed.recordVersion,
    });

    // Another person's edit came first, then the deletion: an edit from before both is stale as before.
    const other = await t.create('task', '别人先改了');
    expect((await save(other, { summary: '别人的修改' })).body.code).toBe(200);
    world.lark.work.deleteTask({ openId: world.editor.openId, taskGuid: other.larkGuid ?? '' });
    await world.runJobs();
    expect(await t.one(other)).toMatchObject({ summary: '别人的修改', larkDeleted: 'kept' });
    expect((await save(other, { summary: '过时的修改' })).body).toMatchObject({
      code: 409,
      msg: TaskMessages.staleRecord,
    });
  });
});
