import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FeedbackMessages,
  InstallMessages,
  type FeedbackSettings,
  type InstallPage,
  type NotificationRow,
  type TaskRecord,
} from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { testStore } from './helpers/s3-server.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(500, 1)]);
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-S9180 Build/UP1A.231005.007) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36';
const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);

type Part = { name: string; data: Buffer; type?: string };

describe.each(combos)('tester feedback becomes a bug on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let closeStore: () => Promise<void>;
  let admin: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let appId: number;
  let versionId: number;
  let otherVersionId: number;
  let pass: string;

  beforeAll(async () => {
    const chosen = await testStore(store);
    closeStore = chosen.close;
    server = await startTestServer(dialect, { blobs: chosen.blobs });
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    const distributeUsers = [
      { userId: editor.userId, permit: 'edit' },
      { userId: viewer.userId, permit: 'view' },
    ];
    const create = async (path: string) =>
      (
        await server.request<{ appId: number }>('POST', '/api/app', {
          token: admin,
          body: { appName: `演示${path}`, appType: 'native', password: '246810', path, distributeUsers },
        })
      ).body.data.appId;
    const publish = async (id: number) => {
      const key = await transferFile(server, editor.token, 'demo.apk', sampleApk({ versionName: '2.1.0' }));
      return (
        await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
          token: editor.token,
          body: { appId: id, s3Url: key },
        })
      ).body.data.id;
    };
    appId = await create('demo');
    versionId = await publish(appId);
    otherVersionId = await publish(await create('other'));
    pass = (await server.request<InstallPage>('GET', '/api/app_version?url=demo&password=246810')).body.data.token;
  });
  afterAll(async () => {
    await server?.close();
    await closeStore?.();
  });

  async function send(fields: Record<string, string>, files: Part[] = [], headers: Record<string, string> = {}) {
    const body = new FormData();
    for (const [k, v] of Object.entries({ url: 'demo', versionId: String(versionId), ...fields })) body.append(k, v);
    for (const f of files) body.append('files', new Blob([f.data], { type: f.type ?? 'image/png' }), f.name);
    const res = await fetch(`${server.url}/api/app_version/feedback`, { method: 'POST', headers, body });
    return {
      status: res.status,
      body: (await res.json()) as { code: number; msg: string; data: { guid: string; message: string } },
    };
  }
  const bugs = async () =>
    (
      await server.request<TaskRecord[]>('POST', '/api/tasks', {
        token: admin,
        body: { appId, pageNo: 1, pageSize: 100, recordType: 'bug' },
      })
    ).body.data;
  const notices = async (token: string) =>
    (await server.request<NotificationRow[]>('GET', '/api/messages', { token })).body.data;
  const settings = (token: string, body?: Omit<FeedbackSettings, 'appId'>) =>
    body
      ? server.request<FeedbackSettings>('POST', '/api/app/feedback_settings', { token, body: { appId, ...body } })
      : server.request<FeedbackSettings>('GET', `/api/app/feedback_settings?appId=${appId}`, { token });

  it('takes an anonymous tester’s text and screenshots, with the device, as a new bug on that build; editors hear of it', async () => {
    const sent = await send(
      { text: '登录后白屏\n点击“我的”页面后一直转圈', deviceModel: 'SM-S9180', osVersion: 'Android 14' },
      [
        { name: 'a.png', data: PNG },
        { name: 'b.png', data: PNG },
      ],
      { 'app-version-token': pass, 'user-agent': ANDROID_UA },
    );
    expect(sent.body).toMatchObject({ code: 200, data: { message: FeedbackMessages.sent } });
    const bug = (await bugs()).find((b) => b.guid === sent.body.data.guid);
    expect(bug).toMatchObject({
      recordType: 'bug',
      summary: '[测试反馈] 登录后白屏',
      versionId,
      creatorId: null,
      bugStatus: 'new',
      assigneeIds: [],
    });
    expect(bug?.description).toContain('点击“我的”页面后一直转圈');
    expect(bug?.description).toContain(`版本：Android 2.1.0`);
    expect(bug?.description).toContain('设备：SM-S9180 · Android 14');
    expect(bug?.bugAttachFiles.map((f) => f.name)).toEqual(['截图1.png', '截图2.png']);
    const file = await fetch(bug?.bugAttachFiles[0]?.url ?? '');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
    // The editor (not the view user) gets a bell notice naming the feedback.
    expect((await notices(editor.token)).map((n) => n.messageInfo.description)).toContain(
      FeedbackMessages.notice('[测试反馈] 登录后白屏'),
    );
    expect(await notices(viewer.token)).toEqual([]);
  });

  it('reads the device from the User-Agent when the page sends none; a signed-in member needs no pass and is the creator', async () => {
    const sent = await send({ text: '闪退' }, [], { token: viewer.token, 'user-agent': ANDROID_UA });
    expect(sent.body.code).toBe(200);
    const bug = (await bugs()).find((b) => b.guid === sent.body.data.guid);
    expect(bug).toMatchObject({ creatorId: viewer.userId, creatorName: 'viewer' });
    expect(bug?.description).toContain('设备：SM-S9180 · Android 14');
  });

  it('refuses without the pass, a build of another app, empty text, and files that are not screenshots or one recording', async () => {
    const before = (await bugs()).length;
    const noPass = await send({ text: '你好' });
    expect([noPass.status, noPass.body.msg]).toEqual([400, InstallMessages.passwordRequired]);
    const h = { 'app-version-token': pass };
    expect((await send({ text: '你好', versionId: String(otherVersionId) }, [], h)).body.msg).toBe(
      FeedbackMessages.versionMissing,
    );
    expect((await send({ text: '  ' }, [], h)).body.msg).toBe(FeedbackMessages.textRequired);
    const text = Buffer.from('not an image at all');
    expect((await send({ text: '图' }, [{ name: 'x.png', data: text }], h)).body.msg).toBe(
      FeedbackMessages.badFileType,
    );
    const seven = Array.from({ length: 7 }, (_, i) => ({ name: `${i}.png`, data: PNG }));
    expect((await send({ text: '图' }, seven, h)).body.msg).toBe(FeedbackMessages.tooManyFiles);
    const mixed = [
      { name: 'a.png', data: PNG },
      { name: 'v.mp4', data: MP4, type: 'video/mp4' },
    ];
    expect((await send({ text: '图' }, mixed, h)).body.msg).toBe(FeedbackMessages.mixedFiles);
    const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await send({ text: '图' }, [{ name: 'big.png', data: big }], h);
    expect([tooBig.status, tooBig.body.msg]).toEqual([400, FeedbackMessages.screenshotTooLarge]);
    expect((await bugs()).length).toBe(before);
    // One recording is fine.
    const video = await send({ text: '录屏' }, [{ name: 'v.mp4', data: MP4, type: 'video/mp4' }], h);
    expect(video.body.code).toBe(200);
    const bug = (await bugs()).find((b) => b.guid === video.body.data.guid);
    expect(bug?.bugAttachFiles.map((f) => f.name)).toEqual(['录屏.mp4']);
  });

  it('follows the app setting: assigned to its receivers; off refuses; view users read it but cannot change it', async () => {
    expect((await settings(viewer.token)).body.data).toEqual({ appId, enabled: true, assigneeIds: [] });
    expect((await settings(viewer.token, { enabled: false, assigneeIds: [] })).status).toBe(403);
    expect(
      (await settings(editor.token, { enabled: true, assigneeIds: [viewer.userId] })).body.data.assigneeIds,
    ).toEqual([viewer.userId]);
    const h = { 'app-version-token': pass };
    const sent = await send({ text: '按钮错位' }, [], h);
    expect((await bugs()).find((b) => b.guid === sent.body.data.guid)?.assigneeIds).toEqual([viewer.userId]);
    expect((await notices(viewer.token)).map((n) => n.messageInfo.description)).toContain(
      FeedbackMessages.notice('[测试反馈] 按钮错位'),
    );
    expect((await settings(editor.token, { enabled: false, assigneeIds: [] })).body.data.enabled).toBe(false);
    const off = await send({ text: '还能发吗' }, [], h);
    expect([off.status, off.body.msg]).toEqual([403, FeedbackMessages.disabled]);
    await settings(editor.token, { enabled: true, assigneeIds: [] });
  });

  it('limits one address to ten sendings on a link in 15 minutes', async () => {
    server.clock.advance(16 * 60 * 1000);
    const h = { 'app-version-token': pass };
    for (let i = 0; i < 10; i += 1) expect((await send({ text: `第 ${i} 条` }, [], h)).body.code).toBe(200);
    const refused = await send({ text: '第 11 条' }, [], h);
    expect([refused.status, refused.body.msg]).toEqual([429, FeedbackMessages.tooMany(15)]);
    server.clock.advance(16 * 60 * 1000);
    expect((await send({ text: '过了一会儿' }, [], h)).body.code).toBe(200);
  });
});
