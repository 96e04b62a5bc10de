import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LarkTaskMessages } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { linkTasksToLark, type TasksLarkWorld } from './helpers/tasks-lark-world.ts';
import { transferFile } from './helpers/upload-client.ts';

describe.each(testDialects())('one record that cannot sync does not stop the others on %s', (dialect) => {
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

  /** A Lark user attaches a file to the task in Lark. */
  const attachInLark = async (larkGuid: string, name: string, text: string) => {
    const form = new FormData();
    form.set('resource_type', 'task');
    form.set('resource_id', larkGuid);
    form.set('file', new Blob([new TextEncoder().encode(text)]), name);
    const userToken = world.lark.issueUserToken({ openId: world.editor.openId }).accessToken;
    expect(
      (
        await fetch(`${world.lark.url}/open-apis/task/v2/attachments/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${userToken}` },
          body: form,
        })
      ).status,
    ).toBe(200);
  };

  it('a task whose attachment is gone from the store gets a history note saying so; the refresh syncs the rest and counts it', async () => {
    const bad = await t.create('task', '附件丢失的任务');
    const good = await t.create('task', '正常的任务');
    await attachInLark(good.larkGuid ?? '', 'crash.log', '飞书里的日志');
    // An attachment added here whose file the store then lost (its push has not run yet).
    const key = await transferFile(
      world.server,
      world.editor.token,
      '丢失.txt',
      Buffer.from('本地文件'),
      'lark_attachment',
    );
    expect((await t.update(bad, { attachFiles: [{ s3Key: key, fileName: '丢失.txt' }] })).body.code).toBe(200);
    await world.server.blobs.delete(key);

    const refreshed = await t.refresh();
    expect([refreshed.code, refreshed.msg]).toEqual([200, 'success']);
    expect(refreshed.data).toMatchObject({ failed: 1, attachments: 1 });
    // The task after it still took in the file added in Lark.
    const goodAfter = await t.one(good);
    expect(goodAfter.attachFiles.map((f) => f.fileName)).toEqual(['crash.log']);
    expect(await (await fetch(goodAfter.attachFiles[0]?.url ?? '')).text()).toBe('飞书里的日志');
    // The bad one says what failed, once however often it is refreshed.
    const note = LarkTaskMessages.recordFailed(LarkTaskMessages.fileMissing('丢失.txt'));
    expect((await t.history(bad)).filter((h) => h.field === 'larkSyncFailed').map((h) => h.newValue)).toEqual([note]);
    expect((await t.refresh()).data).toMatchObject({ failed: 1 });
    expect((await t.history(bad)).filter((h) => h.field === 'larkSyncFailed').map((h) => h.newValue)).toEqual([note]);

    // Fixed by removing the lost file: the next refresh syncs it and reports nothing failed.
    expect((await t.update(await t.one(bad), { attachFiles: [] })).body.code).toBe(200);
    expect((await t.refresh()).data).toMatchObject({ failed: 0 });
  });

  it('a task attachment over 50 MB (Lark takes task attachments up to 50 MB) stays here with one history note; the task and its other files still reach Lark', async () => {
    const small = await transferFile(
      world.server,
      world.editor.token,
      '说明.txt',
      Buffer.from('小文件'),
      'lark_attachment',
    );
    const big = await transferFile(
      world.server,
      world.editor.token,
      '录屏.mov',
      Buffer.alloc(50 * 1024 * 1024 + 1, 7),
      'lark_attachment',
    );
    const uploads = () => world.lark.requests.filter((r) => r.route === 'task.attachment.upload');
    const before = uploads().length;
    const task = await t.create('task', '超大附件的任务', {
      attachFiles: [
        { s3Key: big, fileName: '录屏.mov' },
        { s3Key: small, fileName: '说明.txt' },
      ],
    });
    const inLark = () =>
      [...world.lark.tasks.attachments.values()]
        .filter((a) => !a.deleted && a.resource.id === task.larkGuid)
        .map((a) => [a.name, a.data.toString()]);
    expect(task.larkGuid).toBeTruthy();
    expect(inLark()).toEqual([['说明.txt', '小文件']]);

    const refreshed = await t.refresh();
    expect(refreshed).toMatchObject({ code: 200, data: { failed: 0 } });
    const after = await t.one(task);
    expect(after.attachFiles.map((f) => [f.fileName, Boolean(f.fileToken)])).toEqual([
      ['录屏.mov', false],
      ['说明.txt', true],
    ]);
    expect((await t.history(after)).filter((h) => h.field === 'larkSyncFailed').map((h) => h.newValue)).toEqual([
      '附件「录屏.mov」超过 50 MB，未同步到飞书任务',
    ]);
    // Only the small file was ever sent (Lark would refuse the big one), and nothing was refused.
    expect(
      uploads()
        .slice(before)
        .map((r) => r.status),
    ).toEqual([200]);
    expect(inLark()).toEqual([['说明.txt', '小文件']]);
    // The drawer sends both files with an edit: the task stays editable and its fields reach Lark.
    expect(
      (
        await t.update(after, {
          summary: '超大附件的任务（改）',
          attachFiles: after.attachFiles.map((f) => ({ s3Key: f.s3Key, fileName: f.fileName })),
        })
      ).body.code,
    ).toBe(200);
    await world.runJobs();
    expect(world.lark.tasks.tasks.get(task.larkGuid ?? '')?.summary).toBe('超大附件的任务（改）');
  });

  it('files in Lark over 20 MB are not brought here (one history note each, not downloaded again); the rest are', async () => {
    const task = await t.create('task', '大附件的任务');
    const big = 20 * 1024 * 1024 + 1;
    await attachInLark(task.larkGuid ?? '', 'small.txt', '小文件');
    await attachInLark(task.larkGuid ?? '', 'huge.bin', 'x'.repeat(big));
    await attachInLark(task.larkGuid ?? '', 'sneaky.bin', 'y'.repeat(big));
    // Lark's list says this one is small: the bytes themselves are capped as they arrive.
    const sneaky = [...world.lark.tasks.attachments.values()].find((a) => a.name === 'sneaky.bin');
    if (sneaky) sneaky.size = 10;
    const downloads = () => world.lark.requests.filter((r) => r.route === 'task.attachment.download').length;
    const before = downloads();

    const refreshed = await t.refresh();
    expect([refreshed.code, refreshed.data.failed]).toEqual([200, 0]);
    const after = await t.one(task);
    expect(after.attachFiles.map((f) => f.fileName)).toEqual(['small.txt']);
    expect(await (await fetch(after.attachFiles[0]?.url ?? '')).text()).toBe('小文件');
    const notes = async () =>
      (await t.history(task))
        .filter((h) => h.field === 'larkSyncFailed')
        .map((h) => h.newValue)
        .sort();
    expect(await notes()).toEqual([
      '飞书中的附件「huge.bin」超过 20 MB，未同步到本系统',
      '飞书中的附件「sneaky.bin」超过 20 MB，未同步到本系统',
    ]);
    // The honest one was never downloaded; the other was cut off at the cap.
    expect(downloads() - before).toBe(2);

    await t.refresh();
    expect(await notes()).toHaveLength(2);
    expect((await t.one(task)).attachFiles.map((f) => f.fileName)).toEqual(['small.txt']);
  });

  it('a bug whose 附件 cell holds a file over 20 MB brings the others, not that one (one history note)', async () => {
    const bug = await t.create('bug', '大附件的缺陷');
    // Files past upload_all's 20 MB reach a cell through Lark's multipart upload, which the fake has no route for.
    const media = (name: string, data: Buffer) => {
      const token = world.lark.bitable.newMediaToken();
      world.lark.bitable.media.set(token, {
        file_token: token,
        name,
        size: data.length,
        mime: 'application/octet-stream',
        data,
        parent_type: 'bitable_file',
        parent_node: t.appToken,
        uploader: world.editor.openId,
        uploaded_at: world.server.clock.now(),
      });
      return token;
    };
    const cell = [media('huge.zip', Buffer.alloc(20 * 1024 * 1024 + 1)), media('log.txt', Buffer.from('缺陷日志'))].map(
      (file_token) => ({ file_token }),
    );
    world.lark.work.editRecord({
      openId: world.editor.openId,
      appToken: t.appToken,
      tableId: t.tableId,
      recordId: bug.larkRecordId ?? '',
      fields: { 附件: cell },
    });
    const downloads = () => world.lark.requests.filter((r) => r.route === 'drive.media.download').length;
    const before = downloads();

    expect((await t.refresh()).data).toMatchObject({ failed: 0 });
    const after = await t.one(bug);
    expect(after.bugAttachFiles.map((f) => f.fileName)).toEqual(['log.txt']);
    expect(await (await fetch(after.bugAttachFiles[0]?.url ?? '')).text()).toBe('缺陷日志');
    expect((await t.history(bug)).filter((h) => h.field === 'larkSyncFailed').map((h) => h.newValue)).toEqual([
      '飞书中的附件「huge.zip」超过 20 MB，未同步到本系统',
    ]);
    expect(downloads() - before).toBe(1);
  });

  it('a file sent again after Lark refused the first try (a stale token) arrives whole: each try streams it from the store anew', async () => {
    const bytes = Buffer.from('截图的内容'.repeat(2000));
    const key = await transferFile(world.server, world.editor.token, '截图.png', bytes, 'lark_attachment');
    const uploads = () => world.lark.requests.filter((r) => r.route === 'task.attachment.upload').length;
    const before = uploads();
    world.lark.injectError({
      route: 'task.attachment.upload',
      status: 400,
      body: {
        code: 99991663,
        msg: 'Invalid access token for authorization. Please make a request with token attached.',
      },
    });
    const task = await t.create('task', '重试上传的任务', { attachFiles: [{ s3Key: key, fileName: '截图.png' }] });
    const inLark = [...world.lark.tasks.attachments.values()].filter(
      (a) => !a.deleted && a.resource.id === task.larkGuid,
    );
    expect(inLark.map((a) => [a.name, a.size, a.data.equals(bytes)])).toEqual([['截图.png', bytes.length, true]]);
    expect(task.attachFiles).toMatchObject([{ s3Key: key, fileToken: inLark[0]?.guid }]);
    expect(uploads() - before).toBe(2);
  });

  it('Lark not reachable still says 无法连接飞书 (last: the fake is stopped)', async () => {
    await world.lark.close();
    expect((await t.refresh()).msg).toBe(LarkTaskMessages.unreachable);
  });
});
