import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRecord } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { linkTasksToLark, type TasksLarkWorld } from './helpers/tasks-lark-world.ts';
import { transferFile } from './helpers/upload-client.ts';

describe.each(testDialects())('bug attachments in the Bitable on %s', (dialect) => {
  let world: MessagingWorld;
  let t: TasksLarkWorld;

  beforeAll(async () => {
    world = await startMessagingWorld(dialect);
    t = await linkTasksToLark(world);
  });
  afterAll(async () => {
    await world?.close();
  });

  /** The record's 附件 cell as stored in the fake: file tokens with the bytes behind them. */
  const cellFiles = (recordId: string | null) => {
    const table = t.table();
    const field = table?.fields.find((f) => f.field_name === '附件');
    const cell = (table?.records.find((r) => r.record_id === recordId)?.cells.get(field?.field_id ?? '') ??
      []) as Array<{ file_token: string }>;
    return cell
      .map((c) => world.lark.bitable.media.get(c.file_token))
      .map((m) => ({ token: m?.file_token, name: m?.name, text: m?.data.toString(), parentType: m?.parent_type }));
  };
  /** A Lark user uploads a file to the base through drive media (one a second: Lark's 5 QPS). */
  const uploadInLark = async (name: string, text: string) => {
    const form = new FormData();
    const data = Buffer.from(text);
    for (const [k, v] of Object.entries({
      file_name: name,
      parent_type: 'bitable_file',
      parent_node: t.appToken,
      size: String(data.length),
    }))
      form.set(k, v);
    form.set('file', new Blob([new Uint8Array(data)]), name);
    const userToken = world.lark.issueUserToken({ openId: world.editor.openId }).accessToken;
    const uploaded = (await (
      await fetch(`${world.lark.url}/open-apis/drive/v1/medias/upload_all`, {
        method: 'POST',
        headers: { authorization: `Bearer ${userToken}` },
        body: form,
      })
    ).json()) as { code: number; data: { file_token: string } };
    expect(uploaded.code).toBe(0);
    await world.advance(1000);
    return uploaded.data.file_token;
  };
  /** A Lark user adds a file to the record's 附件 cell: drive media upload, then the cell. */
  const addInLark = async (bug: TaskRecord, name: string, text: string) => {
    const token = await uploadInLark(name, text);
    const cell = cellFiles(bug.larkRecordId).map((f) => ({ file_token: f.token }));
    world.lark.work.editRecord({
      openId: world.editor.openId,
      appToken: t.appToken,
      tableId: t.tableId,
      recordId: bug.larkRecordId ?? '',
      fields: { 附件: [...cell, { file_token: token }] },
    });
    return token;
  };

  it('puts a file attached here into the record’s 附件 cell, and brings a file added in Lark here after a refresh', async () => {
    const png = Buffer.from([137, 80, 78, 71, 13, 10]);
    const key = await transferFile(world.server, world.editor.token, '闪退截图.png', png, 'lark_attachment');
    const bug = await t.create('bug', '附件缺陷', { bugFiles: [{ s3Key: key, fileName: '闪退截图.png' }] });
    expect(bug.larkRecordId).toMatch(/^rec/);
    const [pushed] = cellFiles(bug.larkRecordId);
    expect(pushed).toMatchObject({ name: '闪退截图.png', text: png.toString(), parentType: 'bitable_image' });
    expect(bug.bugAttachFiles).toMatchObject([{ s3Key: key, fileName: '闪退截图.png', fileToken: pushed?.token }]);
    // In step: another run uploads nothing more.
    const uploads = world.lark.requests.filter((r) => r.route === 'drive.media.upload_all').length;
    await t.refresh();
    expect(world.lark.requests.filter((r) => r.route === 'drive.media.upload_all')).toHaveLength(uploads);

    const token = await addInLark(bug, 'crash.log', '飞书里加的日志');
    const refreshed = await t.refresh();
    expect(refreshed.data.attachments).toBe(1);
    const after = await t.one(bug);
    const pulled = after.bugAttachFiles.find((f) => f.fileName === 'crash.log');
    expect(pulled).toMatchObject({
      fileToken: token,
      s3Key: expect.stringMatching(/^lark_attachment\/[A-Za-z0-9]{16}\.log$/),
    });
    expect(await (await fetch(pulled?.url ?? '')).text()).toBe('飞书里加的日志');
    expect(world.lark.requests.filter((r) => r.route === 'drive.media.download')).toHaveLength(1);
  });

  it('a file removed here leaves the cell; a file removed from the cell in Lark goes here too', async () => {
    const key = await transferFile(
      world.server,
      world.editor.token,
      '说明.txt',
      Buffer.from('本地说明'),
      'lark_attachment',
    );
    const bug = await t.create('bug', '删附件的缺陷', { bugFiles: [{ s3Key: key, fileName: '说明.txt' }] });
    await addInLark(bug, 'lark.txt', '飞书文件');
    await t.refresh();
    const both = await t.one(bug);
    expect(both.bugAttachFiles.map((f) => f.fileName)).toEqual(['说明.txt', 'lark.txt']);

    // Removed here: the edit's push takes it out of the cell, and it does not come back.
    const larkFile = both.bugAttachFiles.find((f) => f.fileName === 'lark.txt');
    expect((await t.update(both, { bugFiles: [{ s3Key: key, fileName: '说明.txt' }] })).body.code).toBe(200);
    await world.runJobs();
    expect(cellFiles(bug.larkRecordId).map((f) => f.name)).toEqual(['说明.txt']);
    await t.refresh();
    expect((await t.one(bug)).bugAttachFiles.map((f) => f.fileName)).toEqual(['说明.txt']);
    expect(larkFile?.fileToken).toBeTruthy();

    // Removed in Lark: the next refresh removes it here, with the change in the history.
    await world.advance(1000);
    world.lark.work.editRecord({
      openId: world.editor.openId,
      appToken: t.appToken,
      tableId: t.tableId,
      recordId: bug.larkRecordId ?? '',
      fields: { 附件: null },
    });
    await t.refresh();
    expect((await t.one(bug)).bugAttachFiles).toEqual([]);
    expect(await t.history(bug)).toContainEqual(
      expect.objectContaining({ source: 'lark', field: 'attachFiles', newValue: '[]' }),
    );
  });

  it('brings no more files from Lark than a bug may hold here (20), says so once, and the bug can still be edited', async () => {
    const bug = await t.create('bug', '附件很多的缺陷');
    const tokens: string[] = [];
    for (let i = 1; i <= 21; i += 1) tokens.push(await uploadInLark(`log-${i}.txt`, `日志 ${i}`));
    // 19 of them are already here and in step (set directly: pulling each would take a second).
    const inStep = [];
    for (const [i, fileToken] of tokens.slice(0, 19).entries()) {
      const s3Key = await transferFile(
        world.server,
        world.editor.token,
        `log-${i + 1}.txt`,
        Buffer.from(`日志 ${i + 1}`),
        'lark_attachment',
      );
      inStep.push({ s3Key, fileName: `log-${i + 1}.txt`, fileToken });
    }
    await world.server.db
      .updateTable('task_records')
      .set({ attach_files: JSON.stringify(inStep) })
      .where('guid', '=', bug.guid)
      .execute();
    await world.advance(1000);
    world.lark.work.editRecord({
      openId: world.editor.openId,
      appToken: t.appToken,
      tableId: t.tableId,
      recordId: bug.larkRecordId ?? '',
      fields: { 附件: tokens.map((file_token) => ({ file_token })) },
    });

    expect((await t.refresh()).data.attachments).toBe(1);
    const after = await t.one(bug);
    expect(after.bugAttachFiles.map((f) => f.fileToken)).toEqual(tokens.slice(0, 20));
    // The 21st stays in Lark's cell, untouched.
    expect(cellFiles(bug.larkRecordId).map((f) => f.token)).toEqual(tokens);
    const note = '飞书中的附件超过 20 个，其余附件未同步到本系统';
    await t.refresh();
    expect((await t.history(bug)).filter((h) => h.newValue === note)).toHaveLength(1);
    // The drawer sends every file with an edit: the bug stays editable.
    const edited = await t.update(after, {
      bugStatus: 'fixing',
      bugFiles: after.bugAttachFiles.map((f) => ({ s3Key: f.s3Key, fileName: f.fileName })),
    });
    expect(edited.body).toMatchObject({ code: 200, data: { bugStatus: 'fixing' } });
    await world.runJobs();
    expect(cellFiles(bug.larkRecordId).map((f) => f.token)).toEqual(tokens);
  });

  it('sends a file over 20 MB through Lark’s multipart upload (prepare, 4 MB blocks in order with their checksums, finish): the cell holds it whole', async () => {
    const small = await transferFile(
      world.server,
      world.editor.token,
      '小.txt',
      Buffer.from('小文件'),
      'lark_attachment',
    );
    const bytes = Buffer.alloc(20 * 1024 * 1024 + 1);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 256;
    const big = await transferFile(world.server, world.editor.token, '录屏.mov', bytes, 'lark_attachment');
    const since = world.lark.requests.length;
    const routes = (name: string) => world.lark.requests.slice(since).filter((r) => r.route === name);
    // Six blocks within the fakes' frozen second; Lark's 5 QPS is waited out in place on a real clock.
    world.lark.setRateLimit('drive.media.upload_part', null);
    const bug = await t.create('bug', '大附件的缺陷', {
      bugFiles: [
        { s3Key: big, fileName: '录屏.mov' },
        { s3Key: small, fileName: '小.txt' },
      ],
    });
    world.lark.setRateLimit('drive.media.upload_part', { perSecond: 5 });

    const cell = t.table()?.records.find((r) => r.record_id === bug.larkRecordId);
    const field = t.table()?.fields.find((f) => f.field_name === '附件');
    const media = ((cell?.cells.get(field?.field_id ?? '') ?? []) as Array<{ file_token: string }>).map((c) =>
      world.lark.bitable.media.get(c.file_token),
    );
    expect(media.map((m) => [m?.name, m?.size])).toEqual([
      ['录屏.mov', bytes.length],
      ['小.txt', Buffer.byteLength('小文件')],
    ]);
    expect(media[0]?.data.equals(bytes)).toBe(true);
    expect(routes('drive.media.upload_prepare').map((r) => r.body)).toEqual([
      { file_name: '录屏.mov', parent_type: 'bitable_file', parent_node: t.appToken, size: bytes.length },
    ]);
    expect(
      routes('drive.media.upload_part').map((r) => [
        (r.body as { fields: Record<string, string> }).fields.seq,
        r.status,
      ]),
    ).toEqual(['0', '1', '2', '3', '4', '5'].map((seq) => [seq, 200]));
    expect(routes('drive.media.upload_finish').map((r) => r.status)).toEqual([200]);
    expect(routes('drive.media.upload_all')).toHaveLength(1);

    await world.advance(1000);
    expect((await t.refresh()).data).toMatchObject({ failed: 0 });
    const after = await t.one(bug);
    expect(after.bugAttachFiles.map((f) => [f.fileName, f.fileToken])).toEqual([
      ['录屏.mov', media[0]?.file_token],
      ['小.txt', media[1]?.file_token],
    ]);
    expect((await t.history(after)).filter((h) => h.field === 'larkSyncFailed')).toEqual([]);
    // In step: nothing is uploaded again.
    expect(routes('drive.media.upload_prepare')).toHaveLength(1);
  });

  it('a file Lark refuses as too large (1061043) stays here with one history note; the bug’s other files and fields still sync', async () => {
    const small = await transferFile(
      world.server,
      world.editor.token,
      '说明.txt',
      Buffer.from('说明'),
      'lark_attachment',
    );
    const big = await transferFile(
      world.server,
      world.editor.token,
      '整盘备份.zip',
      Buffer.alloc(20 * 1024 * 1024 + 1, 3),
      'lark_attachment',
    );
    // Lark answers upload_prepare's documented "file size beyond limit" (the create's push, then the refresh).
    world.lark.injectError({
      route: 'drive.media.upload_prepare',
      status: 400,
      body: { code: 1061043, msg: 'file size beyond limit.' },
      times: 2,
    });
    const bug = await t.create('bug', '备份太大的缺陷', {
      bugSeverity: 'low',
      bugFiles: [
        { s3Key: big, fileName: '整盘备份.zip' },
        { s3Key: small, fileName: '说明.txt' },
      ],
    });
    expect(cellFiles(bug.larkRecordId).map((f) => f.name)).toEqual(['说明.txt']);
    await world.advance(1000);
    expect((await t.refresh()).data).toMatchObject({ failed: 0 });
    world.lark.clearInjectedErrors();
    const after = await t.one(bug);
    expect(after.bugAttachFiles.map((f) => [f.fileName, Boolean(f.fileToken)])).toEqual([
      ['整盘备份.zip', false],
      ['说明.txt', true],
    ]);
    expect((await t.history(after)).filter((h) => h.field === 'larkSyncFailed').map((h) => h.newValue)).toEqual([
      '附件「整盘备份.zip」超过飞书允许的大小，未同步到飞书多维表格',
    ]);
    expect(
      (
        await t.update(after, {
          bugSeverity: 'high',
          bugFiles: after.bugAttachFiles.map((f) => ({ s3Key: f.s3Key, fileName: f.fileName })),
        })
      ).body.code,
    ).toBe(200);
    await world.runJobs();
    const severity = t.table()?.fields.find((f) => f.field_name === '严重程度');
    const chosen = t
      .table()
      ?.records.find((r) => r.record_id === bug.larkRecordId)
      ?.cells.get(severity?.field_id ?? '');
    expect(
      (severity?.property?.options as Array<{ id: string; name: string }> | undefined)?.find((o) => o.id === chosen)
        ?.name,
    ).toBe('严重');
  });

  it('a 附件 column deleted in Lark comes back with every bug’s files, not only the first one synced', async () => {
    const bugs: TaskRecord[] = [];
    for (const name of ['一.txt', '二.txt']) {
      const key = await transferFile(world.server, world.editor.token, name, Buffer.from(name), 'lark_attachment');
      bugs.push(await t.create('bug', `列被删的缺陷 ${name}`, { bugFiles: [{ s3Key: key, fileName: name }] }));
      await world.advance(1000);
    }
    const table = t.table();
    if (table) table.fields = table.fields.filter((f) => f.field_name !== '附件');
    // Every bug of this app uploads its files again in the one refresh (the big ones in blocks) while the fake's clock stands still.
    for (const route of ['drive.media.upload_all', 'drive.media.upload_part']) world.lark.setRateLimit(route, null);
    expect((await t.refresh()).code).toBe(200);
    for (const route of ['drive.media.upload_all', 'drive.media.upload_part'])
      world.lark.setRateLimit(route, { perSecond: 5 });
    await world.advance(1000);
    for (const [i, bug] of bugs.entries()) {
      const name = ['一.txt', '二.txt'][i];
      expect((await t.one(bug)).bugAttachFiles.map((f) => f.fileName)).toEqual([name]);
      expect(cellFiles(bug.larkRecordId).map((f) => f.text)).toEqual([name]);
    }
    expect(t.table()?.fields.filter((f) => f.field_name === '附件')).toHaveLength(1);
  });

  it('two bugs pushed at once after the 附件 column was deleted re-create it once, and neither push fails', async () => {
    const bugs: TaskRecord[] = [];
    for (const name of ['甲.txt', '乙.txt']) {
      const key = await transferFile(world.server, world.editor.token, name, Buffer.from(name), 'lark_attachment');
      bugs.push(await t.create('bug', `并发推送的缺陷 ${name}`, { bugFiles: [{ s3Key: key, fileName: name }] }));
      await world.advance(1000);
    }
    const table = t.table();
    if (table) table.fields = table.fields.filter((f) => f.field_name !== '附件');
    for (const bug of bugs) expect((await t.update(bug, { bugSeverity: 'low' })).body.code).toBe(200);
    await world.runJobs();
    expect(t.table()?.fields.filter((f) => f.field_name === '附件')).toHaveLength(1);
    for (const bug of bugs) expect((await t.history(bug)).filter((h) => h.field === 'larkSyncFailed')).toEqual([]);
  });

  it('adds the 附件 column to a table made before it, then fills it', async () => {
    const table = t.table();
    const field = table?.fields.find((f) => f.field_name === '附件');
    if (table && field) table.fields = table.fields.filter((f) => f !== field);
    const key = await transferFile(world.server, world.editor.token, 'old.txt', Buffer.from('旧表'), 'lark_attachment');
    const bug = await t.create('bug', '旧表的缺陷', { bugFiles: [{ s3Key: key, fileName: 'old.txt' }] });
    expect(t.table()?.fields.filter((f) => f.field_name === '附件')).toHaveLength(1);
    expect(cellFiles(bug.larkRecordId).map((f) => f.text)).toEqual(['旧表']);
  });
});
