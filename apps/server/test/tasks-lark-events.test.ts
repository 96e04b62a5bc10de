import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LarkAuthStatus, TaskRecord } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';

const EVENT_PATH = '/api/lark/event';

describe.each(testDialects())('a bug edited in Lark is pulled when Lark says so, on %s', (dialect) => {
  let world: MessagingWorld;
  let appToken: string;
  let tableId: string;

  beforeAll(async () => {
    world = await startMessagingWorld(dialect, { larkEvents: true });
    world.lark.setRateLimit('task.get', null);
  });
  afterAll(async () => {
    await world?.close();
  });

  const call = <T>(path: string, body: unknown) =>
    world.server.request<T>('POST', path, { token: world.editor.token, body });
  const bug = async (guid: string) =>
    (await world.server.request<TaskRecord>('GET', `/api/task?taskGuid=${guid}`, { token: world.editor.token })).body
      .data;
  const pullJobs = async () =>
    (await world.server.db.selectFrom('jobs').select('id').where('kind', '=', 'tasks-sync.pull').execute()).length;

  it('subscribes to the new bug table, and an edit in Lark reaches the bug without a refresh', async () => {
    const base = await call<LarkAuthStatus>('/api/create_bitable', { appId: world.appId });
    expect(base.body.code).toBe(200);
    appToken = [...world.lark.bitable.apps.keys()][0] ?? '';
    tableId = world.lark.bitable.apps.get(appToken)?.tables.find((t) => t.name === '缺陷')?.table_id ?? '';
    expect(world.lark.subscriptions).toContainEqual(
      expect.objectContaining({ fileToken: appToken, fileType: 'bitable' }),
    );

    const created = await call<TaskRecord>('/api/create_task', {
      appId: world.appId,
      recordType: 'bug',
      summary: '切后台闪退',
      assigneeIds: [world.editor.userId],
      startAt: world.server.clock.now(),
      due: world.server.clock.now() + 86_400_000,
      bugSeverity: 'fatal',
      bugType: 'functional',
      moduleName: '登录',
    });
    await world.runJobs();
    const pushed = await bug(created.body.data.guid);
    expect(pushed.larkRecordId).toMatch(/^rec/);

    world.lark.work.shareBase({ appToken, id: world.editor.openId });
    await world.advance(1000);
    world.lark.work.editRecord({
      openId: world.editor.openId,
      appToken,
      tableId,
      recordId: pushed.larkRecordId ?? '',
      fields: { 缺陷状态: '待验证' },
    });
    const url = `${world.server.url}${EVENT_PATH}`;
    const delivery = await world.lark.emitDriveEvent({
      eventType: 'drive.file.bitable_record_changed_v1',
      fileToken: appToken,
      operatorOpenId: world.editor.openId,
      extra: { table_id: tableId },
      url,
    });
    expect(delivery).toMatchObject({ status: 'delivered' });
    await world.runJobs();
    expect((await bug(pushed.guid)).bugStatus).toBe('待验证');

    // Lark redelivers the same event: no second pull is queued.
    const before = await pullJobs();
    if (!('envelope' in delivery)) throw new Error('no envelope');
    await world.lark.pushEvent({
      eventType: 'drive.file.bitable_record_changed_v1',
      eventId: delivery.eventId,
      event: delivery.envelope.event as Record<string, unknown>,
      url,
    });
    expect(await pullJobs()).toBe(before);
  });
});
