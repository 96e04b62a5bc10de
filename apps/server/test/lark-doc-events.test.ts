import { describe, expect, it } from 'vitest';
import { encryptEvent, signEvent } from '@release/fakes';
import type { LarkDocFollow } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { createWikiWorkflow, DOCS_BASE_URL, EVENT_PATH } from './helpers/lark-docs-world.ts';
import { ENCRYPT_KEY, useLarkDocEventsWorld } from './helpers/lark-doc-events-world.ts';

describe.each(testDialects())('Lark document events: following, signatures and the queue on %s', (dialect) => {
  const { w, items, metadataOf, docUrl, work, follow } = useLarkDocEventsWorld(dialect);

  it('following a wiki page subscribes the app to the document behind it', async () => {
    const res = await follow(w.sealed, w.admin, w.workflow.id, [docUrl()]);
    expect(res.body.data).toMatchObject([
      { title: '发布流程', objType: 'docx', spaceName: '研发知识库', url: docUrl(), subscribed: true },
    ]);
    expect(w.lark.subscriptions).toContainEqual(
      expect.objectContaining({ appId: w.lark.app.appId, fileToken: w.doc.obj_token, fileType: 'docx' }),
    );
    const listed = await w.sealed.request<LarkDocFollow[]>(
      'GET',
      `/api/workflow/lark_docs?workflowId=${w.workflow.id}`,
      {
        token: w.admin,
      },
    );
    expect(listed.body.data.map((d) => d.title)).toEqual(['发布流程']);
  });

  it('says why a document cannot be followed', async () => {
    const garbage = await follow(w.sealed, w.admin, w.workflow.id, [docUrl(), '不是链接']);
    expect([garbage.status, garbage.body.msg]).toEqual([400, expect.stringContaining('无法识别的飞书文档地址')]);
    const missing = await follow(w.sealed, w.admin, w.workflow.id, [
      docUrl(),
      `${DOCS_BASE_URL}/wiki/wikcnDoesNotExist000000`,
    ]);
    expect([missing.status, missing.body.msg]).toEqual([
      400,
      expect.stringContaining('知识库或节点不存在（飞书错误码 131005）'),
    ]);
    w.lark.addDriveFile({ token: 'doxcnLockedDocument00000000', type: 'docx', appCanManage: false });
    const locked = await follow(w.sealed, w.admin, w.workflow.id, [
      docUrl(),
      `${DOCS_BASE_URL}/docx/doxcnLockedDocument00000000`,
    ]);
    expect([locked.status, locked.body.msg]).toEqual([
      400,
      expect.stringContaining('飞书应用没有该文档的管理权限，请把应用添加为文档协作者（可管理）（飞书错误码 1069603）'),
    ]);
    // The document that could be followed stays followed.
    const listed = await w.sealed.request<LarkDocFollow[]>(
      'GET',
      `/api/workflow/lark_docs?workflowId=${w.workflow.id}`,
      {
        token: w.admin,
      },
    );
    expect(listed.body.data.map((d) => d.title)).toEqual(['发布流程']);
  });

  it('answers the url_verification challenge, encrypted and plain', async () => {
    expect(await w.lark.verifyEventUrl(`${w.sealed.url}${EVENT_PATH}`)).toMatchObject({ ok: true, status: 200 });
    w.lark.app.encryptKey = undefined;
    expect(await w.lark.verifyEventUrl(`${w.plain.url}${EVENT_PATH}`)).toMatchObject({ ok: true, status: 200 });
    const forged = await w.plain.request('POST', EVENT_PATH, {
      body: { challenge: 'c-1', token: 'not-the-token', type: 'url_verification' },
    });
    expect(forged.status).toBe(401);
  });

  it('turns an encrypted, signed edit into a 修改文档 item with before and after, once however often Lark redelivers it', async () => {
    const wang = await w.sealed.createUser({ username: 'wangwu' });
    const larkUser = w.lark.addUser({ name: '王五' });
    await w.sealed.db
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

    const first = await w.lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: w.doc.obj_token,
      operatorOpenId: larkUser.openId,
      content: '第一步：打包\n第二步：上传',
      url: `${w.sealed.url}${EVENT_PATH}`,
    });
    expect(first).toMatchObject({ status: 'delivered', encrypted: true });
    if (!('envelope' in first)) throw new Error('not delivered');
    const redeliver = async () => {
      const again = await w.lark.pushEvent({
        eventType: 'drive.file.edit_v1',
        eventId: first.eventId,
        event: first.envelope.event as Record<string, unknown>,
        url: `${w.sealed.url}${EVENT_PATH}`,
      });
      expect(again.status).toBe('delivered');
      return JSON.parse(again.attempts.at(-1)?.responseBody ?? '{}') as { data?: { status?: string } };
    };
    // At-least-once delivery: the same event id again while the first is still queued, and twice after it was handled.
    expect((await redeliver()).data?.status).toBe('duplicate');
    expect(await work(w.sealed)).toBe(1);
    const second = await w.lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: w.doc.obj_token,
      operatorOpenId: larkUser.openId,
      content: '第一步：打包\n第二步：签名\n第三步：上传',
      url: `${w.sealed.url}${EVENT_PATH}`,
    });
    await work(w.sealed);
    expect(second).toMatchObject({ status: 'delivered' });
    for (let i = 0; i < 2; i += 1) expect((await redeliver()).data?.status).toBe('duplicate');
    expect(await work(w.sealed)).toBe(0);

    const list = await items(w.sealed, w.admin, w.workflow.id);
    expect(list.map((i) => [i.commitMessage, i.remark])).toEqual([
      ['docs: 修改文档：发布流程', '王五'],
      ['docs: 修改文档：发布流程', '王五'],
    ]);
    const latest = await metadataOf(w.sealed, w.admin, list[0]?.id ?? 0);
    expect(latest).toMatchObject({
      event: 'drive.file.edit_v1',
      spaceName: '研发知识库',
      objTitle: '发布流程',
      changeVisible: true,
      beforeContent: '第一步：打包\n第二步：上传',
      afterContent: '第一步：打包\n第二步：签名\n第三步：上传',
    });
    const diff = await w.sealed.request<Array<{ beforeContent: string; afterContent: string }>>(
      'POST',
      '/api/commit_log/wiki_diff',
      { token: w.admin, body: { ids: [list[1]?.id] } },
    );
    expect(diff.body.data).toMatchObject([{ beforeContent: '', afterContent: '第一步：打包\n第二步：上传' }]);
  });

  it("answers Lark at once while Lark's document API has not answered, then shows the edit", async () => {
    const jobs = w.sealed.built.core.jobs;
    const before = (await items(w.sealed, w.admin, w.workflow.id)).length;
    // Lark's document read does not answer until released; the job runner works as in a running server.
    const held = w.lark.hold('docx.document.raw_content');
    jobs.start();
    try {
      const delivery = await w.lark.emitDriveEvent({
        eventType: 'drive.file.edit_v1',
        fileToken: w.doc.obj_token,
        content: '飞书迟迟未答时的修改',
        url: `${w.sealed.url}${EVENT_PATH}`,
      });
      // Lark's 3 s limit: the fake records a timeout (and schedules a retry) for an answer that comes later.
      expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ status: 200 }] });
      await held.reached;
      expect((await items(w.sealed, w.admin, w.workflow.id)).length).toBe(before);
      held.release();
      // Joins the runner's drain in progress.
      await jobs.runDue();
    } finally {
      held.release();
      await jobs.stop();
    }
    const list = await items(w.sealed, w.admin, w.workflow.id);
    expect(list.length).toBe(before + 1);
    expect(await metadataOf(w.sealed, w.admin, list[0]?.id ?? 0)).toMatchObject({
      afterContent: '飞书迟迟未答时的修改',
      changeVisible: true,
    });
  });

  it('keeps an answered event in the database queue until it is handled (a restart in between loses nothing)', async () => {
    const before = (await items(w.sealed, w.admin, w.workflow.id)).length;
    const delivery = await w.lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: w.doc.obj_token,
      content: '重启前收到的修改',
      url: `${w.sealed.url}${EVENT_PATH}`,
    });
    expect(delivery).toMatchObject({ status: 'delivered' });
    if (!('eventId' in delivery)) throw new Error('not delivered');
    // Committed before the 200: another process (the server after a restart) finds it.
    const other = await w.sealed.openAnotherConnection();
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
    expect((await items(w.sealed, w.admin, w.workflow.id)).length).toBe(before);
    await work(w.sealed);
    expect((await items(w.sealed, w.admin, w.workflow.id)).length).toBe(before + 1);
  });

  it('refuses a bad signature, a plain body where an Encrypt Key is set, and a forged token, storing nothing', async () => {
    const before = (await items(w.sealed, w.admin, w.workflow.id)).length;
    const envelope = {
      schema: '2.0',
      header: {
        event_id: 'ev-forged-1',
        event_type: 'drive.file.edit_v1',
        create_time: '1700000000000',
        token: w.lark.app.verificationToken,
        app_id: w.lark.app.appId,
        tenant_key: w.lark.app.tenantKey,
      },
      event: { file_token: w.doc.obj_token, file_type: 'docx' },
    };
    const body = JSON.stringify({ encrypt: encryptEvent(ENCRYPT_KEY, JSON.stringify(envelope)) });
    const headers = (signature: string) => ({
      'content-type': 'application/json',
      'x-lark-request-timestamp': '1700000000',
      'x-lark-request-nonce': 'n0nce',
      'x-lark-signature': signature,
    });
    const badSignature = await w.sealed.request('POST', EVENT_PATH, {
      rawBody: body,
      headers: headers(signEvent('1700000000', 'n0nce', 'another-key', body)),
    });
    expect([badSignature.status, badSignature.body.msg]).toEqual([401, 'X-Lark-Signature 签名不正确']);
    const tampered = await w.sealed.request('POST', EVENT_PATH, {
      rawBody: body.replace('"}', ' "}'),
      headers: headers(signEvent('1700000000', 'n0nce', ENCRYPT_KEY, body)),
    });
    expect(tampered.status).toBe(401);
    const unsigned = await w.lark.pushEvent({
      eventType: 'drive.file.edit_v1',
      event: envelope.event,
      encrypt: false,
      retry: false,
      url: `${w.sealed.url}${EVENT_PATH}`,
    });
    expect(unsigned.attempts.map((a) => a.status)).toEqual([401]);
    const forgedToken = await w.plain.request('POST', EVENT_PATH, {
      body: { ...envelope, header: { ...envelope.header, token: 'guessed' } },
    });
    expect([forgedToken.status, forgedToken.body.msg]).toEqual([401, 'Verification Token 不一致']);
    // The correctly signed one is taken.
    const good = await w.sealed.request('POST', EVENT_PATH, {
      rawBody: body,
      headers: headers(signEvent('1700000000', 'n0nce', ENCRYPT_KEY, body)),
    });
    await work(w.sealed);
    expect(good.status).toBe(200);
    expect((await items(w.sealed, w.admin, w.workflow.id)).length).toBe(before + 1);
  });

  it('takes plain events with the verification token when no Encrypt Key is set', async () => {
    w.lark.app.encryptKey = undefined;
    const plainAdmin = await w.plain.adminToken();
    const { workflow: plainWorkflow } = await createWikiWorkflow(w.plain, plainAdmin, 'plain');
    expect((await follow(w.plain, plainAdmin, plainWorkflow.id, [w.doc.node_token])).status).toBe(200);
    const delivery = await w.lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: w.doc.obj_token,
      content: '只有一步',
      url: `${w.plain.url}${EVENT_PATH}`,
    });
    await work(w.plain);
    expect(delivery).toMatchObject({ status: 'delivered', encrypted: false });
    const list = await items(w.plain, plainAdmin, plainWorkflow.id);
    expect(list.map((i) => i.commitMessage)).toEqual(['docs: 修改文档：发布流程']);
    expect(await metadataOf(w.plain, plainAdmin, list[0]?.id ?? 0)).toMatchObject({
      afterContent: '只有一步',
      changeVisible: true,
    });
  });
});
