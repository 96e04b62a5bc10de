import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskMessages, type TaskComment, type TaskRecord } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { linkTasksToLark, type TasksLarkWorld } from './helpers/tasks-lark-world.ts';

const KEPT = '保留本地未同步的修改，不再与飞书同步';

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

  const larkTasksNamed = (summary: string) => [...world.lark.tasks.tasks.values()].filter((x) => !x.deleted && x.summary === summary);
  const counts = async () => ((await t.listed('task')) as unknown as { extraInfo: { taskCount: number; bugCount: number } }).extraInfo;

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
    expect(await t.history(record)).toContainEqual(expect.objectContaining({ source: 'lark', field: 'deletedInLark', newValue: '已在飞书任务清单中删除' }));
    expect((await t.get<TaskComment[]>(`/api/comments?taskGuid=${record.guid}`)).body.data.map((c) => c.content)).toEqual(['删除前的评论']);

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
    expect(await t.history(record)).toContainEqual(expect.objectContaining({ source: 'lark', field: 'conflict', oldValue: '已在飞书任务清单中删除', newValue: KEPT }));
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
    expect([gone.larkRecordId, edited.larkRecordId]).toEqual([expect.stringMatching(/^rec/), expect.stringMatching(/^rec/)]);
    for (const r of [gone, edited]) world.lark.work.deleteRecord({ openId: world.editor.openId, appToken: t.appToken, tableId: t.tableId, recordId: r.larkRecordId ?? '' });
    // The local edit is saved but its push has not run when the pull notices the deletions.
    expect((await t.update(edited, { bugSeverity: 'fatal' })).body.code).toBe(200);
    expect((await t.refresh()).code).toBe(200);

    const bugs = (await t.listed('bug')).data;
    expect(bugs.map((r) => r.guid)).not.toContain(gone.guid);
    expect(bugs.find((r) => r.guid === edited.guid)).toMatchObject({ bugSeverity: 'fatal', larkRecordId: null });
    expect(await t.history(gone)).toContainEqual(expect.objectContaining({ source: 'lark', field: 'deletedInLark', newValue: '已在飞书多维表格中删除' }));
    expect(await t.history(edited)).toContainEqual(expect.objectContaining({ source: 'lark', field: 'conflict', oldValue: '已在飞书多维表格中删除', newValue: KEPT }));
    // The queued push of that edit finds nothing to do, and no row comes back into the table.
    await world.runJobs();
    await t.refresh();
    const titles = (t.table()?.records ?? []).map((r) => JSON.stringify([...r.cells.values()]));
    expect(titles.some((cells) => cells.includes('表格里删掉'))).toBe(false);
    expect(await t.history(edited)).not.toContainEqual(expect.objectContaining({ field: 'larkSyncFailed' }));
    const bug = (await t.get<TaskRecord>(`/api/task?taskGuid=${gone.guid}`)).body.data;
    expect((await t.update(bug, { bugSeverity: 'low' })).body.msg).toBe(TaskMessages.deletedInLark);
  });
});
