import { describe, expect, it } from 'vitest';
import type { LarkDocFollow, WorkflowRow } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { grantApp } from './helpers/factories.ts';
import { DOCS_BASE_URL, EVENT_PATH } from './helpers/lark-docs-world.ts';
import { useLarkDocEventsWorld } from './helpers/lark-doc-events-world.ts';

describe.each(testDialects())('Lark document events: what the items say on %s', (dialect) => {
  const { w, items, metadataOf, docUrl, work, follow } = useLarkDocEventsWorld(dialect, { followed: true });
  let baseToken = '';
  const base = () => baseToken;

  it('still lists an edit whose text Lark refuses, without a diff, and compares the next one with the last text seen', async () => {
    const url = `${w.sealed.url}${EVENT_PATH}`;
    const file = w.lark.state.driveFiles.get(w.doc.obj_token);
    if (!file) throw new Error('no drive file');
    const lastSeen = (await metadataOf(w.sealed, w.admin, (await items(w.sealed, w.admin, w.workflow.id))[0]?.id ?? 0))
      .afterContent;
    file.appCanManage = false;
    expect(
      await w.lark.emitDriveEvent({
        eventType: 'drive.file.edit_v1',
        fileToken: w.doc.obj_token,
        content: '读不到的版本',
        url,
      }),
    ).toMatchObject({ status: 'delivered' });
    await work(w.sealed);
    const hidden = (await items(w.sealed, w.admin, w.workflow.id))[0];
    expect(hidden?.commitMessage).toBe('docs: 修改文档：发布流程');
    expect(await metadataOf(w.sealed, w.admin, hidden?.id ?? 0)).toMatchObject({
      changeVisible: false,
      afterContent: null,
    });
    file.appCanManage = true;
    await w.lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: w.doc.obj_token,
      content: '又能读了',
      url,
    });
    await work(w.sealed);
    expect(
      await metadataOf(w.sealed, w.admin, (await items(w.sealed, w.admin, w.workflow.id))[0]?.id ?? 0),
    ).toMatchObject({
      changeVisible: true,
      beforeContent: lastSeen,
      afterContent: '又能读了',
    });
  });

  it('shows a renamed wiki page under its new name', async () => {
    const node = w.lark.state.wikiNodes.find((n) => n.node_token === w.doc.node_token);
    if (!node) throw new Error('no node');
    node.title = '发布流程（2026 版）';
    await w.lark.emitDriveEvent({
      eventType: 'drive.file.edit_v1',
      fileToken: w.doc.obj_token,
      content: '改名后的第一次修改',
      url: `${w.sealed.url}${EVENT_PATH}`,
    });
    await work(w.sealed);
    expect((await items(w.sealed, w.admin, w.workflow.id))[0]?.commitMessage).toBe(
      'docs: 修改文档：发布流程（2026 版）',
    );
    const listed = await w.sealed.request<LarkDocFollow[]>(
      'GET',
      `/api/workflow/lark_docs?workflowId=${w.workflow.id}`,
      {
        token: w.admin,
      },
    );
    expect(listed.body.data.map((d) => d.title)).toContain('发布流程（2026 版）');
    node.title = '发布流程';
  });

  it('labels bitable record and field changes and shows their values before and after', async () => {
    const base = w.lark.addWikiNode({ space_id: '7001', title: '缺陷表', obj_type: 'bitable' });
    baseToken = base.node_token;
    expect((await follow(w.sealed, w.admin, w.workflow.id, [docUrl(), base.node_token])).status).toBe(200);
    const url = `${w.sealed.url}${EVENT_PATH}`;
    await w.lark.emitDriveEvent({
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
    await work(w.sealed);
    await w.lark.emitDriveEvent({
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
    await work(w.sealed);
    // Lark's edit_v1 for the same change is not a third item.
    await w.lark.emitDriveEvent({ eventType: 'drive.file.edit_v1', fileToken: base.obj_token, url });
    await work(w.sealed);
    const list = (await items(w.sealed, w.admin, w.workflow.id)).filter((i) => i.commitMessage.includes('缺陷表'));
    expect(list.map((i) => i.commitMessage)).toEqual([
      'docs: 多维表格字段变更：缺陷表（负责人）',
      'docs: 多维表格记录变更：缺陷表（修改记录（1 条））',
    ]);
    const record = await metadataOf(w.sealed, w.admin, list[1]?.id ?? 0);
    expect(record).toMatchObject({
      event: 'drive.file.bitable_record_changed_v1',
      beforeContent: '修改记录 recX\n  fldStatus: 新建',
      afterContent: '修改记录 recX\n  fldStatus: 修复中',
    });
    expect(await metadataOf(w.sealed, w.admin, list[0]?.id ?? 0)).toMatchObject({
      event: 'drive.file.bitable_field_changed_v1',
      afterContent: expect.stringContaining('名称: 负责人'),
    });
  });

  it('reports a new file in a followed folder as 新增文档', async () => {
    w.lark.addDriveFile({ token: 'fldcnReleaseNotes000000000', type: 'folder' });
    const res = await follow(w.sealed, w.admin, w.workflow.id, [
      docUrl(),
      base(),
      `${DOCS_BASE_URL}/drive/folder/fldcnReleaseNotes000000000`,
    ]);
    expect(res.body.data.map((d) => d.objType)).toContain('folder');
    expect(w.lark.subscriptions).toContainEqual(
      expect.objectContaining({
        fileToken: 'fldcnReleaseNotes000000000',
        fileType: 'folder',
        eventType: 'file.created_in_folder_v1',
      }),
    );
    w.lark.addDriveFile({ token: 'doxcnNewReleaseNote0000000', type: 'docx' });
    const delivery = await w.lark.emitDriveEvent({
      eventType: 'drive.file.created_in_folder_v1',
      fileToken: 'doxcnNewReleaseNote0000000',
      folderToken: 'fldcnReleaseNotes000000000',
      content: 'v1.2 发布说明',
      url: `${w.sealed.url}${EVENT_PATH}`,
    });
    await work(w.sealed);
    expect(delivery).toMatchObject({ status: 'delivered' });
    const created = (await items(w.sealed, w.admin, w.workflow.id))[0];
    expect(created?.commitMessage).toBe('docs: 新增文档：doxcnNewReleaseNote0000000');
    expect(await metadataOf(w.sealed, w.admin, created?.id ?? 0)).toMatchObject({
      event: 'drive.file.create_v1',
      beforeContent: '',
      afterContent: 'v1.2 发布说明',
      changeVisible: true,
    });
  });

  it('acknowledges and ignores events of documents nobody follows', async () => {
    const before = (await items(w.sealed, w.admin, w.workflow.id)).length;
    const unknown = await w.lark.pushEvent({
      eventType: 'drive.file.edit_v1',
      event: { file_token: 'doxcnSomebodyElses00000000', file_type: 'docx' },
      url: `${w.sealed.url}${EVENT_PATH}`,
    });
    const other = await w.lark.pushEvent({
      eventType: 'drive.file.title_updated_v1',
      event: { file_token: w.doc.obj_token, file_type: 'docx' },
      url: `${w.sealed.url}${EVENT_PATH}`,
    });
    await work(w.sealed);
    expect([unknown.status, other.status]).toEqual(['delivered', 'delivered']);
    expect((await items(w.sealed, w.admin, w.workflow.id)).length).toBe(before);
  });

  it('lets only editors of the app change what is followed, and only on wiki workflows', async () => {
    const viewer = await w.sealed.createUser({ username: 'viewer-docs' });
    const stranger = await w.sealed.createUser({ username: 'stranger-docs' });
    await grantApp(w.sealed.db, w.appId, viewer.userId, 'view');
    expect(
      (await w.sealed.request('GET', `/api/workflow/lark_docs?workflowId=${w.workflow.id}`, { token: viewer.token }))
        .status,
    ).toBe(200);
    const change = await follow(w.sealed, viewer.token, w.workflow.id, []);
    expect([change.status, change.body.code]).toEqual([403, 10028]);
    expect(
      (await w.sealed.request('GET', `/api/workflow/lark_docs?workflowId=${w.workflow.id}`, { token: stranger.token }))
        .status,
    ).toBe(404);
    await w.sealed.request('POST', '/api/workflow', {
      token: w.admin,
      body: { appId: w.appId, tabName: '关卡', contentType: 'custom', manageType: 'JPS', enterpriseName: '工作室' },
    });
    const jps = (
      await w.sealed.request<WorkflowRow[]>('GET', `/api/workflow?appId=${w.appId}`, { token: w.admin })
    ).body.data.find((row) => row.tabName === '关卡');
    const notWiki = await follow(w.sealed, w.admin, jps?.id ?? 0, [w.doc.node_token]);
    expect([notWiki.status, notWiki.body.msg]).toEqual([400, '只有类型为知识库的自定义工作流可以关注飞书文档']);
  });
});
