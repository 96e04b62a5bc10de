import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { bearer, call } from '../test-http.ts';
import { startLarkFake, type LarkFake } from './lark-fake.ts';

type Answer = { code: number; msg: string; data: Record<string, any> };

describe('Lark fake: drive media for Bitable attachment cells', () => {
  let fake: LarkFake;
  let tenant: string;
  let appToken: string;
  let tableId: string;
  const bitable = (path: string, init: { method?: string; body?: unknown } = {}) => call<Answer>(`${fake.url}/open-apis/bitable/v1/apps${path}`, { method: init.method, body: init.body, headers: bearer(tenant) });
  const upload = async (fields: Record<string, string>, data: Buffer | null, token = tenant) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    if (data) form.set('file', new Blob([new Uint8Array(data)]), fields.file_name ?? 'f');
    const response = await fetch(`${fake.url}/open-apis/drive/v1/medias/upload_all`, { method: 'POST', headers: bearer(token), body: form });
    return { status: response.status, body: (await response.json()) as Answer };
  };

  beforeEach(async () => {
    fake = await startLarkFake({ clock: new FakeClock({ frozen: true, start: Date.UTC(2026, 10, 23, 8) }) });
    tenant = fake.issueTenantToken();
    appToken = (await bitable('', { body: { name: '缺陷' } })).body.data.app.app_token;
    tableId = (await bitable(`/${appToken}/tables`, { body: { table: { name: '缺陷', fields: [{ field_name: '标题', type: 1 }, { field_name: '附件', type: 17 }] } } })).body.data.table_id;
  });
  afterEach(() => fake.close());

  it('uploads a file to a base, puts it in an attachment cell and serves it back to collaborators', async () => {
    const bytes = Buffer.from('崩溃日志');
    const uploaded = await upload({ file_name: 'crash.log', parent_type: 'bitable_file', parent_node: appToken, size: String(bytes.length) }, bytes);
    expect(uploaded).toMatchObject({ status: 200, body: { code: 0, data: { file_token: expect.stringMatching(/^boxcn\w{22}$/) } } });
    const token = uploaded.body.data.file_token as string;
    const record = await bitable(`/${appToken}/tables/${tableId}/records`, { body: { fields: { 标题: '闪退', 附件: [{ file_token: token }] } } });
    expect(record.body.data.record.fields.附件).toEqual([{ file_token: token, name: 'crash.log', size: bytes.length, type: 'text/plain', url: `${fake.url}/open-apis/drive/v1/medias/${token}/download`, tmp_url: expect.any(String) }]);
    const download = await fetch(`${fake.url}/open-apis/drive/v1/medias/${token}/download`, { headers: bearer(tenant) });
    expect([download.status, download.headers.get('content-disposition'), Buffer.from(await download.arrayBuffer()).toString()]).toEqual([200, 'attachment; filename="crash.log"', '崩溃日志']);
    // Someone who is not a collaborator of the base may not read it.
    const stranger = fake.issueUserToken({ openId: fake.addUser({ name: '路人' }).openId }).accessToken;
    const refused = await call<Answer>(`${fake.url}/open-apis/drive/v1/medias/${token}/download`, { headers: bearer(stranger) });
    expect([refused.status, refused.body.code]).toEqual([403, 1061004]);
    expect((await call<Answer>(`${fake.url}/open-apis/drive/v1/medias/boxcnnothere/download`, { headers: bearer(tenant) })).body.code).toBe(1061003);
  });

  it('refuses what Lark refuses: a wrong size, over 20 MB, an unknown base, a token not uploaded to this base, no token', async () => {
    const bytes = Buffer.from('abc');
    expect((await upload({ file_name: 'a.txt', parent_type: 'bitable_file', parent_node: appToken, size: '4' }, bytes)).body.code).toBe(1062009);
    const big = await upload({ file_name: 'a.txt', parent_type: 'bitable_file', parent_node: appToken, size: String(20 * 1024 * 1024 + 1) }, bytes);
    expect([big.status, big.body.code]).toEqual([400, 1061043]);
    expect((await upload({ file_name: 'a.txt', parent_type: 'bitable_file', parent_node: 'bascnNOPE', size: '3' }, bytes)).body.code).toBe(1061044);
    expect((await upload({ file_name: 'a.txt', parent_type: 'bitable_file', parent_node: appToken, size: '3' }, null)).body.code).toBe(1061002);
    expect((await upload({ file_name: 'a.txt', parent_type: 'bitable_file', parent_node: appToken, size: '3' }, bytes, 't-expired')).body.code).toBe(99991663);
    const written = await bitable(`/${appToken}/tables/${tableId}/records`, { body: { fields: { 标题: 'x', 附件: [{ file_token: 'boxcnmadeup' }] } } });
    expect([written.status, written.body.code]).toEqual([200, 1254069]);
  });
});
