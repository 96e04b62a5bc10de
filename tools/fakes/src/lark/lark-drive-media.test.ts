import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { bearer, call } from '../test-http.ts';
import { buildMultipart } from '../shared/multipart.ts';
import { startLarkFake, type LarkFake } from './lark-fake.ts';
import { adler32, MEDIA_BLOCK_SIZE } from './routes/drive-media-multipart.routes.ts';

type Answer = { code: number; msg: string; data: Record<string, any> };

describe('Lark fake: drive media for Bitable attachment cells', () => {
  let fake: LarkFake;
  let tenant: string;
  let appToken: string;
  let tableId: string;
  const bitable = (path: string, init: { method?: string; body?: unknown } = {}) =>
    call<Answer>(`${fake.url}/open-apis/bitable/v1/apps${path}`, {
      method: init.method,
      body: init.body,
      headers: bearer(tenant),
    });
  const upload = async (fields: Record<string, string>, data: Buffer | null, token = tenant) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    if (data) form.set('file', new Blob([new Uint8Array(data)]), fields.file_name ?? 'f');
    const response = await fetch(`${fake.url}/open-apis/drive/v1/medias/upload_all`, {
      method: 'POST',
      headers: bearer(token),
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Answer };
  };

  beforeEach(async () => {
    fake = await startLarkFake({ clock: new FakeClock({ frozen: true, start: Date.UTC(2026, 10, 23, 8) }) });
    tenant = fake.issueTenantToken();
    appToken = (await bitable('', { body: { name: '缺陷' } })).body.data.app.app_token;
    tableId = (
      await bitable(`/${appToken}/tables`, {
        body: {
          table: {
            name: '缺陷',
            fields: [
              { field_name: '标题', type: 1 },
              { field_name: '附件', type: 17 },
            ],
          },
        },
      })
    ).body.data.table_id;
  });
  afterEach(() => fake.close());

  it('uploads a file to a base, puts it in an attachment cell and serves it back to collaborators', async () => {
    const bytes = Buffer.from('崩溃日志');
    const uploaded = await upload(
      { file_name: 'crash.log', parent_type: 'bitable_file', parent_node: appToken, size: String(bytes.length) },
      bytes,
    );
    expect(uploaded).toMatchObject({
      status: 200,
      body: { code: 0, data: { file_token: expect.stringMatching(/^boxcn\w{22}$/) } },
    });
    const token = uploaded.body.data.file_token as string;
    const record = await bitable(`/${appToken}/tables/${tableId}/records`, {
      body: { fields: { 标题: '闪退', 附件: [{ file_token: token }] } },
    });
    expect(record.body.data.record.fields.附件).toEqual([
      {
        file_token: token,
        name: 'crash.log',
        size: bytes.length,
        type: 'text/plain',
        url: `${fake.url}/open-apis/drive/v1/medias/${token}/download`,
        tmp_url: expect.any(String),
      },
    ]);
    const download = await fetch(`${fake.url}/open-apis/drive/v1/medias/${token}/download`, {
      headers: bearer(tenant),
    });
    expect([
      download.status,
      download.headers.get('content-disposition'),
      Buffer.from(await download.arrayBuffer()).toString(),
    ]).toEqual([200, 'attachment; filename="crash.log"', '崩溃日志']);
    // Someone who is not a collaborator of the base may not read it.
    const stranger = fake.issueUserToken({ openId: fake.addUser({ name: '路人' }).openId }).accessToken;
    const refused = await call<Answer>(`${fake.url}/open-apis/drive/v1/medias/${token}/download`, {
      headers: bearer(stranger),
    });
    expect([refused.status, refused.body.code]).toEqual([403, 1061004]);
    expect(
      (await call<Answer>(`${fake.url}/open-apis/drive/v1/medias/boxcnnothere/download`, { headers: bearer(tenant) }))
        .body.code,
    ).toBe(1061003);
  });

  it('refuses what Lark refuses: a wrong size, over 20 MB, an unknown base, a token not uploaded to this base, no token', async () => {
    const bytes = Buffer.from('abc');
    expect(
      (await upload({ file_name: 'a.txt', parent_type: 'bitable_file', parent_node: appToken, size: '4' }, bytes)).body
        .code,
    ).toBe(1062009);
    const big = await upload(
      { file_name: 'a.txt', parent_type: 'bitable_file', parent_node: appToken, size: String(20 * 1024 * 1024 + 1) },
      bytes,
    );
    expect([big.status, big.body.code]).toEqual([400, 1061043]);
    expect(
      (await upload({ file_name: 'a.txt', parent_type: 'bitable_file', parent_node: 'bascnNOPE', size: '3' }, bytes))
        .body.code,
    ).toBe(1061044);
    expect(
      (await upload({ file_name: 'a.txt', parent_type: 'bitable_file', parent_node: appToken, size: '3' }, null)).body
        .code,
    ).toBe(1061002);
    expect(
      (
        await upload(
          { file_name: 'a.txt', parent_type: 'bitable_file', parent_node: appToken, size: '3' },
          bytes,
          't-expired',
        )
      ).body.code,
    ).toBe(99991663);
    const written = await bitable(`/${appToken}/tables/${tableId}/records`, {
      body: { fields: { 标题: 'x', 附件: [{ file_token: 'boxcnmadeup' }] } },
    });
    expect([written.status, written.body.code]).toEqual([200, 1254069]);
  });

  describe('multipart upload (upload_prepare, upload_part, upload_finish) for files over 20 MB', () => {
    const media = (route: string, body: unknown, token = tenant) =>
      call<Answer>(`${fake.url}/open-apis/drive/v1/medias/${route}`, { body, headers: bearer(token) });
    const part = (fields: Record<string, string>, data: Buffer | null, token = tenant) => {
      const form = buildMultipart([
        ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        ...(data ? [{ name: 'file', filename: 'blob', value: data }] : []),
      ]);
      return call<Answer>(`${fake.url}/open-apis/drive/v1/medias/upload_part`, {
        raw: form.body,
        headers: { ...bearer(token), 'content-type': form.contentType },
      });
    };
    const blocksOf = (data: Buffer) =>
      Array.from({ length: Math.ceil(data.length / MEDIA_BLOCK_SIZE) }, (_, seq) =>
        data.subarray(seq * MEDIA_BLOCK_SIZE, (seq + 1) * MEDIA_BLOCK_SIZE),
      );
    const file = Buffer.alloc(2 * MEDIA_BLOCK_SIZE + 10);
    for (let i = 0; i < file.length; i++) file[i] = (i * 31) % 251;

    it('splits a file into 4 MB blocks (the last one shorter), takes them in any order and makes one media of them', async () => {
      const prepared = await media('upload_prepare', {
        file_name: '录屏.mov',
        parent_type: 'bitable_file',
        parent_node: appToken,
        size: file.length,
      });
      expect(prepared.body).toMatchObject({
        code: 0,
        data: { upload_id: expect.stringMatching(/^\d{19}$/), block_size: 4194304, block_num: 3 },
      });
      const uploadId = prepared.body.data.upload_id as string;
      const blocks = blocksOf(file);
      for (const seq of [2, 0, 1]) {
        const block = blocks[seq] as Buffer;
        expect(
          (
            await part(
              { upload_id: uploadId, seq: String(seq), size: String(block.length), checksum: adler32(block) },
              block,
            )
          ).body.code,
        ).toBe(0);
      }
      const finished = await media('upload_finish', { upload_id: uploadId, block_num: 3 });
      expect(finished.body).toMatchObject({ code: 0, data: { file_token: expect.stringMatching(/^boxcn\w{22}$/) } });
      const token = finished.body.data.file_token as string;
      const record = await bitable(`/${appToken}/tables/${tableId}/records`, {
        body: { fields: { 标题: '大文件', 附件: [{ file_token: token }] } },
      });
      expect(record.body.data.record.fields.附件).toMatchObject([
        { file_token: token, name: '录屏.mov', size: file.length },
      ]);
      const download = await fetch(`${fake.url}/open-apis/drive/v1/medias/${token}/download`, {
        headers: bearer(tenant),
      });
      expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);
      // The upload is over: its id takes nothing more.
      expect((await media('upload_finish', { upload_id: uploadId, block_num: 3 })).body.code).toBe(1061021);
    });

    it('refuses what Lark refuses: bad prepare input, blocks outside the upload, wrong sizes or checksums, a missing block, another uploader, an expired id', async () => {
      expect(
        (
          await media('upload_prepare', {
            file_name: 'a.mov',
            parent_type: 'bitable_file',
            parent_node: appToken,
            size: 0,
          })
        ).body.code,
      ).toBe(1061002);
      expect(
        (
          await media('upload_prepare', {
            file_name: 'a.mov',
            parent_type: 'bitable_file',
            parent_node: 'bascnNOPE',
            size: file.length,
          })
        ).body.code,
      ).toBe(1061044);
      const stranger = fake.issueUserToken({ openId: fake.addUser({ name: '路人' }).openId }).accessToken;
      expect(
        (
          await media(
            'upload_prepare',
            { file_name: 'a.mov', parent_type: 'bitable_file', parent_node: appToken, size: file.length },
            stranger,
          )
        ).body.code,
      ).toBe(1061004);

      const uploadId = (
        await media('upload_prepare', {
          file_name: 'a.mov',
          parent_type: 'bitable_file',
          parent_node: appToken,
          size: file.length,
        })
      ).body.data.upload_id as string;
      // More than 5 blocks within the frozen second: the limit is the next test's.
      fake.setRateLimit('drive.media.upload_part', null);
      const [first, second, last] = blocksOf(file) as [Buffer, Buffer, Buffer];
      const send = (seq: number, block: Buffer, extra: Record<string, string> = {}, token = tenant) =>
        part({ upload_id: uploadId, seq: String(seq), size: String(block.length), ...extra }, block, token);
      expect((await send(3, last)).body.code).toBe(1062011);
      expect((await send(0, first, { size: String(first.length - 1) })).body.code).toBe(1062009);
      expect((await send(0, last)).body.code).toBe(1061002);
      expect((await send(0, first, { checksum: '12345' })).body.code).toBe(1062008);
      expect(
        (await part({ upload_id: '7000000000000000000', seq: '0', size: String(first.length) }, first)).body.code,
      ).toBe(1061021);
      const other = fake.issueTenantToken(fake.addApp().appId);
      expect((await send(0, first, {}, other)).body.code).toBe(1062007);
      expect((await send(0, first)).body.code).toBe(0);
      expect((await send(2, last)).body.code).toBe(0);
      expect((await media('upload_finish', { upload_id: uploadId, block_num: 3 })).body.code).toBe(1062010);
      expect((await media('upload_finish', { upload_id: uploadId, block_num: 2 })).body.code).toBe(1061002);
      await fake.advance(24 * 60 * 60 * 1000 + 1);
      tenant = fake.issueTenantToken();
      const late = await media('upload_finish', { upload_id: uploadId, block_num: 3 });
      expect([late.status, late.body.code]).toEqual([400, 1061021]);
      expect((await send(1, second)).body.code).toBe(1061021);
    });

    it('answers a sixth block within one second with Lark’s rate limit (5 QPS)', async () => {
      const big = Buffer.alloc(6 * MEDIA_BLOCK_SIZE);
      const uploadId = (
        await media('upload_prepare', {
          file_name: 'b.mov',
          parent_type: 'bitable_file',
          parent_node: appToken,
          size: big.length,
        })
      ).body.data.upload_id as string;
      const codes: number[] = [];
      for (const [seq, block] of blocksOf(big).entries())
        codes.push(
          (await part({ upload_id: uploadId, seq: String(seq), size: String(block.length) }, block)).body.code,
        );
      expect(codes).toEqual([0, 0, 0, 0, 0, 99991400]);
      await fake.advance(1000);
      expect(
        (
          await part(
            { upload_id: uploadId, seq: '5', size: String(MEDIA_BLOCK_SIZE) },
            big.subarray(0, MEDIA_BLOCK_SIZE),
          )
        ).body.code,
      ).toBe(0);
      expect((await media('upload_finish', { upload_id: uploadId, block_num: 6 })).body.code).toBe(0);
    });
  });
});
