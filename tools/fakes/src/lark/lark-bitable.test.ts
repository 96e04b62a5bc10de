import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { bearer, call } from '../test-http.ts';
import { startLarkFake, type LarkFake } from './lark-fake.ts';
import type { LarkUser } from './lark-state.ts';

type Answer = { code: number; msg: string; data: Record<string, any> };

describe('Lark fake: Bitable', () => {
  let fake: LarkFake;
  let tenant: string;
  let zhang: LarkUser;
  const api = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    call<Answer>(`${fake.url}/open-apis/bitable/v1/apps${path}`, {
      method: init.method,
      body: init.body,
      headers: bearer(init.token ?? tenant),
    });

  async function bugTable() {
    const app = (await api('', { body: { name: '缺陷' } })).body.data.app;
    const fields = [
      { field_name: '标题', type: 1 },
      { field_name: '状态', type: 3, property: { options: [{ name: '新建' }, { name: '修复中' }] } },
      { field_name: '处理人', type: 11 },
      { field_name: '截止', type: 5 },
      { field_name: '修改时间', type: 1002 },
    ];
    const table = (await api(`/${app.app_token}/tables`, { body: { table: { name: '缺陷列表', fields } } })).body.data;
    return { appToken: app.app_token as string, tableId: table.table_id as string, url: app.url as string };
  }

  beforeEach(async () => {
    fake = await startLarkFake({ clock: new FakeClock({ frozen: true, start: Date.UTC(2026, 10, 23, 8) }) });
    zhang = fake.addUser({ name: '张三' });
    tenant = fake.issueTenantToken();
  });
  afterEach(() => fake.close());

  it('creates a base, a table with fields and select options with opt… ids', async () => {
    const { appToken, tableId, url } = await bugTable();
    expect(appToken).toMatch(/^[A-Za-z0-9]{27}$/);
    expect(url).toContain(appToken);
    const fields = (await api(`/${appToken}/tables/${tableId}/fields`)).body.data;
    expect(fields.total).toBe(5);
    expect(fields.items[0]).toMatchObject({ field_name: '标题', is_primary: true, ui_type: 'Text' });
    expect(fields.items[1].property.options.map((o: { id: string }) => o.id)).toEqual([
      expect.stringMatching(/^opt/),
      expect.stringMatching(/^opt/),
    ]);
    const tables = (await api(`/${appToken}/tables`)).body.data;
    expect(tables.items.map((t: { name: string }) => t.name)).toEqual(['数据表', '缺陷列表']);
    const badPrimary = await api(`/${appToken}/tables`, {
      body: { table: { name: 'x', fields: [{ field_name: 'a', type: 3 }] } },
    });
    expect(badPrimary.body.code).toBe(1254001);
  });

  it('writes records by field name and reads text as segments; a new select name becomes an option', async () => {
    const { appToken, tableId } = await bugTable();
    const created = await api(`/${appToken}/tables/${tableId}/records`, {
      body: { fields: { 标题: '闪退', 状态: '待验证', 处理人: [{ id: zhang.openId }], 截止: 1795507200000 } },
    });
    expect(created.body.data.record).toMatchObject({
      record_id: expect.stringMatching(/^rec/),
      fields: { 标题: [{ type: 'text', text: '闪退' }], 状态: '待验证', 处理人: [{ id: zhang.openId, name: '张三' }] },
    });
    const options = (await api(`/${appToken}/tables/${tableId}/fields`)).body.data.items[1].property.options;
    expect(options.map((o: { name: string }) => o.name)).toEqual(['新建', '修复中', '待验证']);
    const wrong = await api(`/${appToken}/tables/${tableId}/records`, { body: { fields: { 截止: '明天' } } });
    expect([wrong.status, wrong.body.code]).toEqual([200, 1254064]);
    const unknown = await api(`/${appToken}/tables/${tableId}/records`, { body: { fields: { 没有: 'x' } } });
    expect(unknown.body.code).toBe(1254044);
    const id = created.body.data.record.record_id;
    const updated = await api(`/${appToken}/tables/${tableId}/records/${id}`, {
      method: 'PUT',
      body: { fields: { 状态: '修复中' } },
    });
    expect(updated.body.data.record.fields).toMatchObject({ 标题: [{ text: '闪退' }], 状态: '修复中' });
    const cleared = await api(`/${appToken}/tables/${tableId}/records/${id}`, {
      method: 'PUT',
      body: { fields: { 处理人: null } },
    });
    expect(cleared.body.data.record.fields.处理人).toBeUndefined();
  });

  it('searches with filter, sort, automatic fields, total and page tokens', async () => {
    const { appToken, tableId } = await bugTable();
    const records = Array.from({ length: 7 }, (_, i) => ({
      fields: { 标题: `缺陷 ${i}`, 状态: i % 2 ? '修复中' : '新建' },
    }));
    expect(
      (await api(`/${appToken}/tables/${tableId}/records/batch_create`, { body: { records } })).body.data.records,
    ).toHaveLength(7);
    const body = {
      filter: { conjunction: 'and', conditions: [{ field_name: '状态', operator: 'is', value: ['新建'] }] },
      sort: [{ field_name: '标题', desc: true }],
      automatic_fields: true,
    };
    const first = await call<Answer>(
      `${fake.url}/open-apis/bitable/v1/apps/${appToken}/tables/${tableId}/records/search?page_size=3`,
      { body, headers: bearer(tenant) },
    );
    expect(first.body.data).toMatchObject({ total: 4, has_more: true });
    expect(first.body.data.items[0]).toMatchObject({
      fields: { 标题: [{ text: '缺陷 6' }] },
      last_modified_time: fake.clock.now(),
    });
    const next = await call<Answer>(
      `${fake.url}/open-apis/bitable/v1/apps/${appToken}/tables/${tableId}/records/search?page_size=3&page_token=${first.body.data.page_token}`,
      { body, headers: bearer(tenant) },
    );
    expect(
      next.body.data.items.map((r: { fields: { 标题: Array<{ text: string }> } }) => r.fields.标题[0]?.text),
    ).toEqual(['缺陷 0']);
    const badToken = await call<Answer>(
      `${fake.url}/open-apis/bitable/v1/apps/${appToken}/tables/${tableId}/records/search?page_token=zzz`,
      { body: {}, headers: bearer(tenant) },
    );
    expect(badToken.body.code).toBe(1254002);
    const zero = await call<Answer>(
      `${fake.url}/open-apis/bitable/v1/apps/${appToken}/tables/${tableId}/records/search?page_size=0`,
      { body: {}, headers: bearer(tenant) },
    );
    expect([zero.status, zero.body.code]).toEqual([400, 1254011]);
  });

  it('answers the same client_token with the same record, and 1255006 for another body', async () => {
    const { appToken, tableId } = await bugTable();
    const path = `${fake.url}/open-apis/bitable/v1/apps/${appToken}/tables/${tableId}/records?client_token=6f1c1f0e-4a52-4b8e-9a53-0c1f3b1f2d11`;
    const a = await call<Answer>(path, { body: { fields: { 标题: 'a' } }, headers: bearer(tenant) });
    const b = await call<Answer>(path, { body: { fields: { 标题: 'a' } }, headers: bearer(tenant) });
    expect(b.body.data.record.record_id).toBe(a.body.data.record.record_id);
    const c = await call<Answer>(path, { body: { fields: { 标题: 'b' } }, headers: bearer(tenant) });
    expect([c.status, c.body.code]).toEqual([400, 1255006]);
  });

  it('is open to collaborators only; a Lark user edits a record and adds options', async () => {
    const { appToken, tableId } = await bugTable();
    const other = fake.addApp();
    const stranger = await api(`/${appToken}/tables`, { token: fake.issueTenantToken(other.appId) });
    expect([stranger.status, stranger.body.code]).toEqual([403, 1254701]);
    expect((await api('/bascnAAAAAAAAAAAAAAAAAAAAAA/tables')).body.code).toBe(1254040);
    const id = (await api(`/${appToken}/tables/${tableId}/records`, { body: { fields: { 标题: 'a' } } })).body.data
      .record.record_id;
    expect(() =>
      fake.work.editRecord({ openId: zhang.openId, appToken, tableId, recordId: id, fields: { 状态: '修复中' } }),
    ).toThrow(/1254701/);
    fake.work.shareBase({ appToken, id: zhang.openId });
    await fake.advance(1000);
    const edited = fake.work.editRecord({
      openId: zhang.openId,
      appToken,
      tableId,
      recordId: id,
      fields: { 状态: '修复中' },
    });
    expect(edited).toMatchObject({
      fields: { 状态: '修复中', 修改时间: fake.clock.now() },
      last_modified_by: { id: zhang.openId },
    });
    fake.work.addSelectOption({ appToken, tableId, fieldName: '状态', name: '已关闭' });
    const options = (await api(`/${appToken}/tables/${tableId}/fields`)).body.data.items[1].property.options;
    expect(options.map((o: { name: string }) => o.name)).toEqual(['新建', '修复中', '已关闭']);
  });

  it('limits record searches to 20 a second (429 / 99991400)', async () => {
    const { appToken, tableId } = await bugTable();
    const search = () =>
      call<Answer>(`${fake.url}/open-apis/bitable/v1/apps/${appToken}/tables/${tableId}/records/search`, {
        body: {},
        headers: bearer(tenant),
      });
    for (let i = 0; i < 20; i++) expect((await search()).status).toBe(200);
    const limited = await search();
    expect([limited.status, limited.body.code]).toEqual([429, 99991400]);
  });
});
