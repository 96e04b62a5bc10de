import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encryptEvent, signEvent, type LarkFake } from '@release/fakes';
import type { CommitLogItem, LarkDocFollow, WorkflowRow } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { grantApp } from './helpers/factories.ts';
import {
  createWikiWorkflow,
  DOCS_BASE_URL,
  EVENT_PATH,
  startDocsFake,
  startDocsServer,
} from './helpers/lark-docs-world.ts';
import type { TestServer } from './helpers/test-app.ts';

const ENCRYPT_KEY = 'encrypt-key-of-the-lark-console';

interface WikiMeta {
  event: string;
  spaceName: string | null;
  objTitle: string;
  changeVisible: boolean;
  beforeContent: string | null;
  afterContent: string | null;
}

describe.each(testDialects())('Lark document events on %s', (dialect) => {
  let lark: LarkFake;
  /** Configured like a console with an Encrypt Key: AES bodies and X-Lark-Signature. */
  let sealed: TestServer;
  /** Only a Verification Token: plain bodies. */
  let plain: TestServer;
  let admin: string;
  let workflow: WorkflowRow;
  let appId: number;
  let doc: { node_token: string; obj_token: string };

  const items = async (server: TestServer, token: string, workflowId: number) =>
    (
      await server.request<{ list: CommitLogItem[] }>(
        'GET',
        `/api/commit_log_list?workflowIds=${workflowId}&onlyCliff=false`,
        { token },
      )
    ).body.data.list;
  const metadataOf = async (server: TestServer, token: string, id: number): Promise<WikiMeta> =>
    JSON.parse(
      (
        await server.request<Record<string, string>>('POST', '/api/commit_log/metadata_list', {
          token,
          body: { ids: [id] },
        })
      ).body.data[String(id)] ?? '{}',
    ) as WikiMeta;
  const docUrl = () => `${DOCS_BASE_URL}/wiki/${doc.node_token}`;
  let baseToken = '';
  const base = () => baseToken;
  /** Lark's events are answered at once and handled by the job runner (main.ts starts it; here the test drains it). */
  const work = (server: TestServer) => server.built.core.jobs.runDue();
  const follow = (server: TestServer, token: string, workflowId: number, sources: string[]) =>
    server.request<LarkDocFollow[]>('POST', '/api/workflow/lark_docs', { token, body: { workflowId, sources } });

  beforeAll(async () => {
    lark = await startDocsFake();
    lark.addWikiSpace({ space_id: '7001', name: '研发知识库' });
    doc = lark.addWikiNode({ space_id: '7001', title: '发布流程' });
    sealed = await startDocsServer(dialect, lark, {
      verificationToken: lark.app.verificationToken,
      encryptKey: ENCRYPT_KEY,
    });
    plain = await startDocsServer(dialect, lark, { verificationToken: lark.app.verificationToken, encryptKey: null });
    admin = await sealed.adminToken();
    ({ appId, workflow } = await createWikiWorkflow(sealed, admin, 'wiki'));
  });
  afterAll(async () => {
    await sealed?.close();
    await plain?.close();
    await lark?.close();
  });
  beforeEach(() => {
    lark.app.encryptKey = ENCRYPT_KEY;
  });

  it('following a wiki page subscribes the app to the document behind it', async () => {
    const res = await follow(sealed, admin, workflow.id, [docUrl()]);
    expect(res.body.data).toMatchObject([
      { title: '发布流程', objType: 'docx', spaceName: '研发知识库', url: docUrl(), subscribed: true },
    ]);
    expect(lark.subscriptions).toContainEqual(
      expect.objectContaining({ appId: lark.app.appId, fileToken: doc.obj_token, fileType: 'docx' }),
    );
    const listed = await sealed.request<LarkDocFollow[]>('GET', `/api/workflow/lark_docs?workflowId=${workflow.id}`, {
      token: admin,
    });
    expect(listed.body.data.map((d) => d.title)).toEqual(['发布流程']);
  });

  it('says why a document cannot be followed', async () => {
    const garbage = await follow(sealed, admin, workflow.id, [docUrl(), '不是链接']);
    expect([garbage.status, garbage.body.msg]).toEqual([400, expect.stringContaining('无法识别的飞书文档地址')]);
    const missing = await follow(sealed, admin, workflow.id, [
      docUrl(),
      `${DOCS_BASE_URL}/wiki/wikcnDoesNotExist000000`,
    ]);
    expect([missing.status, missing.body.msg]).toEqual([
      400,
      expect.stringContaining('知识库或节点不存在（飞书错误码 131005）'),
    ]);
    lark.addDriveFile({ token: 'doxcnLockedDocument00000000', type: 'docx', appCanManage: false });
    const locked = await follow(sealed, admin, workflow.id, [
      docUrl(),
      `${DOCS_BASE_URL}/docx/doxcnLockedDocument00000000`,
    ]);
    expect([locked.status, locked.body.msg]).toEqual([
      400,
      expect.stringContaining('飞书应用没有该文档的管理权限，请把应用添加为文档协作者（可管理）（飞书错误码 1069603）'),
    ]);
    // The document that could be followed stays followed.
    const listed = await sealed.request<LarkDocFollow[]>('GET', `/api/workflow/lark_docs?workflowId=${workflow.id}`, {
      token: admin,
    });
    expect(listed.body.data.map((d) => d.title)).toEqual(['发布流程']);
  });

  it('answers the url_verification challenge, encrypted and plain', async () => {
    expect(await lark.verifyEventUrl(`${sealed.url}${EVENT_PATH}`)).toMatchObject({ ok: true, status: 200 });
    lark.app.encryptKey = undefined;
    expect(await lark.verifyEventUrl(`${plain.url}${EVENT_PATH}`)).toMatchObject({ ok: true, status: 200 });
    const forged = await plain.request('POST', EVENT_PATH, {
      body: { challenge: 'c-1', token: 'not-the-token', type: 'url_verification' },
    });
    expect(forged.status).toBe(401);
  });

  it('turns an encrypted, signed edit into a 修改文档 item with before and after, once however often Lark redelivers it', async () => {
    const wang = await sealed.createUser({ username: 'wangwu' });
    const larkUser = lark.addUser({ name: '王五' });
    await sealed.db
      .insertInto('user_identities')
      .values({
        user_id: wang.userId,
        provider: 'lark',
        subject: larkUser.openId,
        union_id: null,
        display_name: '王五',
        avatar_url: null,
        create_time: 1,
        last_login_time: null,
      })
      .execute();

    const first = await lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: doc.obj_token,
      operatorOpenId: larkUser.openId,
      content: '第一步：打包\n第二步：上传',
      url: `${sealed.url}${EVENT_PATH}`,
    });
    expect(first).toMatchObject({ status: 'delivered', encrypted: true });
    if (!('envelope' in first)) throw new Error('not delivered');
    const redeliver = async () => {
      const again = await lark.pushEvent({
        eventType: 'drive.file.edit_v1',
        eventId: first.eventId,
        event: first.envelope.event as Record<string, unknown>,
        url: `${sealed.url}${EVENT_PATH}`,
      });
      expect(again.status).toBe('delivered');
      return JSON.parse(again.attempts.at(-1)?.responseBody ?? '{}') as { data?: { status?: string } };
    };
    // At-least-once delivery: the same event id again while the first is still queued, and twice after it was handled.
    expect((await redeliver()).data?.status).toBe('duplicate');
    expect(await work(sealed)).toBe(1);
    const second = await lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: doc.obj_token,
      operatorOpenId: larkUser.openId,
      content: '第一步：打包\n第二步：签名\n第三步：上传',
      url: `${sealed.url}${EVENT_PATH}`,
    });
    await work(sealed);
    expect(second).toMatchObject({ status: 'delivered' });
    for (let i = 0; i < 2; i += 1) expect((await redeliver()).data?.status).toBe('duplicate');
    expect(await work(sealed)).toBe(0);

    const list = await items(sealed, admin, workflow.id);
    expect(list.map((i) => [i.commitMessage, i.remark])).toEqual([
      ['docs: 修改文档：发布流程', '王五'],
      ['docs: 修改文档：发布流程', '王五'],
    ]);
    const latest = await metadataOf(sealed, admin, list[0]?.id ?? 0);
    expect(latest).toMatchObject({
      event: 'drive.file.edit_v1',
      spaceName: '研发知识库',
      objTitle: '发布流程',
      changeVisible: true,
      beforeContent: '第一步：打包\n第二步：上传',
      afterContent: '第一步：打包\n第二步：签名\n第三步：上传',
    });
    const diff = await sealed.request<Array<{ beforeContent: string; afterContent: string }>>(
      'POST',
      '/api/commit_log/wiki_diff',
      { token: admin, body: { ids: [list[1]?.id] } },
    );
    expect(diff.body.data).toMatchObject([{ beforeContent: '', afterContent: '第一步：打包\n第二步：上传' }]);
  });

  it("answers Lark at once while Lark's document API has not answered, then shows the edit", async () => {
    const jobs = sealed.built.core.jobs;
    const before = (await items(sealed, admin, workflow.id)).length;
    // Lark's document read does not answer until released; the job runner works as in a running server.
    const held = lark.hold('docx.document.raw_content');
    jobs.start();
    try {
      const delivery = await lark.emitDriveEvent({
        eventType: 'drive.file.edit_v1',
        fileToken: doc.obj_token,
        content: '飞书迟迟未答时的修改',
        url: `${sealed.url}${EVENT_PATH}`,
      });
      // Lark's 3 s limit: the fake records a timeout (and schedules a retry) for an answer that comes later.
      expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ status: 200 }] });
      await held.reached;
      expect((await items(sealed, admin, workflow.id)).length).toBe(before);
      held.release();
      // Joins the runner's drain in progress.
      await jobs.runDue();
    } finally {
      held.release();
      await jobs.stop();
    }
    const list = await items(sealed, admin, workflow.id);
    expect(list.length).toBe(before + 1);
    expect(await metadataOf(sealed, admin, list[0]?.id ?? 0)).toMatchObject({
      afterContent: '飞书迟迟未答时的修改',
      changeVisible: true,
    });
  });

  it('keeps an answered event in the database queue until it is handled (a restart in between loses nothing)', async () => {
    const before = (await items(sealed, admin, workflow.id)).length;
    const delivery = await lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: doc.obj_token,
      content: '重启前收到的修改',
      url: `${sealed.url}${EVENT_PATH}`,
    });
    expect(delivery).toMatchObject({ status: 'delivered' });
    if (!('eventId' in delivery)) throw new Error('not delivered');
    // Committed before the 200: another process (the server after a restart) finds it.
    const other = await sealed.openAnotherConnection();
    try {
      const queued = await other.db
        .selectFrom('jobs')
        .select(['kind', 'status', 'payload'])
        .where('dedupe_key', '=', `lark-event:${delivery.eventId}`)
        .execute();
      expect(queued.map((j) => [j.kind, j.status])).toEqual([['lark-docs.event', 'pending']]);
      expect(JSON.parse(queued[0]?.payload ?? '{}')).toMatchObject({
        eventId: delivery.eventId,
        eventType: 'drive.file.edit_v1',
      });
    } finally {
      await other.destroy();
    }
    expect((await items(sealed, admin, workflow.id)).length).toBe(before);
    await work(sealed);
    expect((await items(sealed, admin, workflow.id)).length).toBe(before + 1);
  });

  it('refuses a bad signature, a plain body where an Encrypt Key is set, and a forged token, storing nothing', async () => {
    const before = (await items(sealed, admin, workflow.id)).length;
    const envelope = {
      schema: '2.0',
      header: {
        event_id: 'ev-forged-1',
        event_type: 'drive.file.edit_v1',
        create_time: '1700000000000',
        token: lark.app.verificationToken,
        app_id: lark.app.appId,
        tenant_key: lark.app.tenantKey,
      },
      event: { file_token: doc.obj_token, file_type: 'docx' },
    };
    const body = JSON.stringify({ encrypt: encryptEvent(ENCRYPT_KEY, JSON.stringify(envelope)) });
    const headers = (signature: string) => ({
      'content-type': 'application/json',
      'x-lark-request-timestamp': '1700000000',
      'x-lark-request-nonce': 'n0nce',
      'x-lark-signature': signature,
    });
    const badSignature = await sealed.request('POST', EVENT_PATH, {
      rawBody: body,
      headers: headers(signEvent('1700000000', 'n0nce', 'another-key', body)),
    });
    expect([badSignature.status, badSignature.body.msg]).toEqual([401, 'X-Lark-Signature 签名不正确']);
    const tampered = await sealed.request('POST', EVENT_PATH, {
      rawBody: body.replace('"}', ' "}'),
      headers: headers(signEvent('1700000000', 'n0nce', ENCRYPT_KEY, body)),
    });
    expect(tampered.status).toBe(401);
    const unsigned = await lark.pushEvent({
      eventType: 'drive.file.edit_v1',
      event: envelope.event,
      encrypt: false,
      retry: false,
      url: `${sealed.url}${EVENT_PATH}`,
    });
    expect(unsigned.attempts.map((a) => a.status)).toEqual([401]);
    const forgedToken = await plain.request('POST', EVENT_PATH, {
      body: { ...envelope, header: { ...envelope.header, token: 'guessed' } },
    });
    expect([forgedToken.status, forgedToken.body.msg]).toEqual([401, 'Verification Token 不一致']);
    // The correctly signed one is taken.
    const good = await sealed.request('POST', EVENT_PATH, {
      rawBody: body,
      headers: headers(signEvent('1700000000', 'n0nce', ENCRYPT_KEY, body)),
    });
    await work(sealed);
    expect(good.status).toBe(200);
    expect((await items(sealed, admin, workflow.id)).length).toBe(before + 1);
  });

  it('takes plain events with the verification token when no Encrypt Key is set', async () => {
    lark.app.encryptKey = undefined;
    const plainAdmin = await plain.adminToken();
    const { workflow: plainWorkflow } = await createWikiWorkflow(plain, plainAdmin, 'plain');
    expect((await follow(plain, plainAdmin, plainWorkflow.id, [doc.node_token])).status).toBe(200);
    const delivery = await lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: doc.obj_token,
      content: '只有一步',
      url: `${plain.url}${EVENT_PATH}`,
    });
    await work(plain);
    expect(delivery).toMatchObject({ status: 'delivered', encrypted: false });
    const list = await items(plain, plainAdmin, plainWorkflow.id);
    expect(list.map((i) => i.commitMessage)).toEqual(['docs: 修改文档：发布流程']);
    expect(await metadataOf(plain, plainAdmin, list[0]?.id ?? 0)).toMatchObject({
      afterContent: '只有一步',
      changeVisible: true,
    });
  });

  it('still lists an edit whose text Lark refuses, without a diff, and compares the next one with the last text seen', async () => {
    const url = `${sealed.url}${EVENT_PATH}`;
    const file = lark.state.driveFiles.get(doc.obj_token);
    if (!file) throw new Error('no drive file');
    const lastSeen = (await metadataOf(sealed, admin, (await items(sealed, admin, workflow.id))[0]?.id ?? 0))
      .afterContent;
    file.appCanManage = false;
    expect(
      await lark.emitDriveEvent({
        eventType: 'drive.file.edit_v1',
        fileToken: doc.obj_token,
        content: '读不到的版本',
        url,
      }),
    ).toMatchObject({ status: 'delivered' });
    await work(sealed);
    const hidden = (await items(sealed, admin, workflow.id))[0];
    expect(hidden?.commitMessage).toBe('docs: 修改文档：发布流程');
    expect(await metadataOf(sealed, admin, hidden?.id ?? 0)).toMatchObject({
      changeVisible: false,
      afterContent: null,
    });
    file.appCanManage = true;
    await lark.emitDriveEvent({ eventType: 'drive.file.edit_v1', fileToken: doc.obj_token, content: '又能读了', url });
    await work(sealed);
    expect(await metadataOf(sealed, admin, (await items(sealed, admin, workflow.id))[0]?.id ?? 0)).toMatchObject({
      changeVisible: true,
      beforeContent: lastSeen,
      afterContent: '又能读了',
    });
  });

  it('shows a renamed wiki page under its new name', async () => {
    const node = lark.state.wikiNodes.find((n) => n.node_token === doc.node_token);
    if (!node) throw new Error('no node');
    node.title = '发布流程（2026 版）';
    await lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: doc.obj_token,
      content: '改名后的第一次修改',
      url: `${sealed.url}${EVENT_PATH}`,
    });
    await work(sealed);
    expect((await items(sealed, admin, workflow.id))[0]?.commitMessage).toBe('docs: 修改文档：发布流程（2026 版）');
    const listed = await sealed.request<LarkDocFollow[]>('GET', `/api/workflow/lark_docs?workflowId=${workflow.id}`, {
      token: admin,
    });
    expect(listed.body.data.map((d) => d.title)).toContain('发布流程（2026 版）');
    node.title = '发布流程';
  });

  it('labels bitable record and field changes and shows their values before and after', async () => {
    const base = lark.addWikiNode({ space_id: '7001', title: '缺陷表', obj_type: 'bitable' });
    baseToken = base.node_token;
    expect((await follow(sealed, admin, workflow.id, [docUrl(), base.node_token])).status).toBe(200);
    const url = `${sealed.url}${EVENT_PATH}`;
    await lark.emitDriveEvent({
      eventType: 'drive.file.bitable_record_changed_v1',
      fileToken: base.obj_token,
      url,
      extra: {
        table_id: 'tblA',
        action_list: [
          {
            record_id: 'recX',
            action: 'record_edited',
            before_value: [{ field_id: 'fldStatus', field_value: '"新建"' }],
            after_value: [{ field_id: 'fldStatus', field_value: '"修复中"' }],
          },
        ],
      },
    });
    await work(sealed);
    await lark.emitDriveEvent({
      eventType: 'drive.file.bitable_field_changed_v1',
      fileToken: base.obj_token,
      url,
      extra: {
        table_id: 'tblA',
        action_list: [
          { action: 'field_added', field_id: 'fldOwner', after_value: { id: 'fldOwner', name: '负责人', type: 11 } },
        ],
      },
    });
    await work(sealed);
    // Lark's edit_v1 for the same change is not a third item.
    await lark.emitDriveEvent({ eventType: 'drive.file.edit_v1', fileToken: base.obj_token, url });
    await work(sealed);
    const list = (await items(sealed, admin, workflow.id)).filter((i) => i.commitMessage.includes('缺陷表'));
    expect(list.map((i) => i.commitMessage)).toEqual([
      'docs: 多维表格字段变更：缺陷表（负责人）',
      'docs: 多维表格记录变更：缺陷表（修改记录（1 条））',
    ]);
    const record = await metadataOf(sealed, admin, list[1]?.id ?? 0);
    expect(record).toMatchObject({
      event: 'drive.file.bitable_record_changed_v1',
      beforeContent: '修改记录 recX\n  fldStatus: 新建',
      afterContent: '修改记录 recX\n  fldStatus: 修复中',
    });
    expect(await metadataOf(sealed, admin, list[0]?.id ?? 0)).toMatchObject({
      event: 'drive.file.bitable_field_changed_v1',
      afterContent: expect.stringContaining('名称: 负责人'),
    });
  });

  it('reports a new file in a followed folder as 新增文档', async () => {
    lark.addDriveFile({ token: 'fldcnReleaseNotes000000000', type: 'folder' });
    const res = await follow(sealed, admin, workflow.id, [
      docUrl(),
      base(),
      `${DOCS_BASE_URL}/drive/folder/fldcnReleaseNotes000000000`,
    ]);
    expect(res.body.data.map((d) => d.objType)).toContain('folder');
    expect(lark.subscriptions).toContainEqual(
      expect.objectContaining({
        fileToken: 'fldcnReleaseNotes000000000',
        fileType: 'folder',
        eventType: 'file.created_in_folder_v1',
      }),
    );
    lark.addDriveFile({ token: 'doxcnNewReleaseNote0000000', type: 'docx' });
    const delivery = await lark.emitDriveEvent({
      eventType: 'drive.file.created_in_folder_v1',
      fileToken: 'doxcnNewReleaseNote0000000',
      folderToken: 'fldcnReleaseNotes000000000',
      content: 'v1.2 发布说明',
      url: `${sealed.url}${EVENT_PATH}`,
    });
    await work(sealed);
    expect(delivery).toMatchObject({ status: 'delivered' });
    const created = (await items(sealed, admin, workflow.id))[0];
    expect(created?.commitMessage).toBe('docs: 新增文档：doxcnNewReleaseNote0000000');
    expect(await metadataOf(sealed, admin, created?.id ?? 0)).toMatchObject({
      event: 'drive.file.create_v1',
      beforeContent: '',
      afterContent: 'v1.2 发布说明',
      changeVisible: true,
    });
  });

  it('acknowledges and ignores events of documents nobody follows', async () => {
    const before = (await items(sealed, admin, workflow.id)).length;
    const unknown = await lark.pushEvent({
      eventType: 'drive.file.edit_v1',
      event: { file_token: 'doxcnSomebodyElses00000000', file_type: 'docx' },
      url: `${sealed.url}${EVENT_PATH}`,
    });
    const other = await lark.pushEvent({
      eventType: 'drive.file.title_updated_v1',
      event: { file_token: doc.obj_token, file_type: 'docx' },
      url: `${sealed.url}${EVENT_PATH}`,
    });
    await work(sealed);
    expect([unknown.status, other.status]).toEqual(['delivered', 'delivered']);
    expect((await items(sealed, admin, workflow.id)).length).toBe(before);
  });

  it('lets only editors of the app change what is followed, and only on wiki workflows', async () => {
    const viewer = await sealed.createUser({ username: 'viewer-docs' });
    const stranger = await sealed.createUser({ username: 'stranger-docs' });
    await grantApp(sealed.db, appId, viewer.userId, 'view');
    expect(
      (await sealed.request('GET', `/api/workflow/lark_docs?workflowId=${workflow.id}`, { token: viewer.token }))
        .status,
    ).toBe(200);
    const change = await follow(sealed, viewer.token, workflow.id, []);
    expect([change.status, change.body.code]).toEqual([403, 10028]);
    expect(
      (await sealed.request('GET', `/api/workflow/lark_docs?workflowId=${workflow.id}`, { token: stranger.token }))
        .status,
    ).toBe(404);
    await sealed.request('POST', '/api/workflow', {
      token: admin,
      body: { appId, tabName: '关卡', contentType: 'custom', manageType: 'JPS', enterpriseName: '工作室' },
    });
    const jps = (
      await sealed.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })
    ).body.data.find((w) => w.tabName === '关卡');
    const notWiki = await follow(sealed, admin, jps?.id ?? 0, [doc.node_token]);
    expect([notWiki.status, notWiki.body.msg]).toEqual([400, '只有类型为知识库的自定义工作流可以关注飞书文档']);
  });
});
