import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Messages,
  ResultCode,
  UNCATEGORISED_ID,
  UNCATEGORISED_NAME,
  type AppListItem,
  type CategoryRow,
} from '@release/contract';
import { insertApp } from './helpers/factories.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

describe.each(testDialects())('categories on %s', (dialect) => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
  });

  const listCategories = (query = '', token = admin) =>
    server.request<CategoryRow[]>('GET', `/api/categorys${query}`, { token });
  const saveCategory = (body: Record<string, unknown>, token = admin) =>
    server.request<{ id: number }>('POST', '/api/category', { token, body });
  const deleteCategory = (id: number, token = admin) => server.request('DELETE', `/api/category?id=${id}`, { token });
  const categories = async () => (await listCategories()).body.data;
  const countOf = async (name: string) => (await categories()).find((c) => c.categoryName === name)?.appCount;

  async function createCategory(categoryName: string): Promise<number> {
    const res = await saveCategory({ categoryName });
    expect(res.body).toMatchObject({ code: 200, msg: 'success' });
    return res.body.data.id;
  }

  it('always lists the virtual 未分类 (id 0), counting apps without a category', async () => {
    const empty = await listCategories();
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      code: 200,
      total: 1,
      data: [{ id: UNCATEGORISED_ID, categoryName: UNCATEGORISED_NAME, appCount: 0 }],
    });
    await insertApp(server.db);
    await insertApp(server.db);
    expect(await countOf(UNCATEGORISED_NAME)).toBe(2);
  });

  it('creates categories and counts their apps; 未分类 comes last, all on one page by default', async () => {
    const games = await createCategory('Games');
    const tools = await createCategory('工具');
    for (let i = 0; i < 3; i += 1) await insertApp(server.db, { category_id: games });
    await insertApp(server.db, { category_id: tools });
    const res = await listCategories();
    expect(res.body.total).toBe(3);
    expect(res.body.data).toEqual([
      { id: games, categoryName: 'Games', appCount: 3 },
      { id: tools, categoryName: '工具', appCount: 1 },
      { id: 0, categoryName: '未分类', appCount: 2 },
    ]);
  });

  it('pages with 未分类 counted once, as the very last item', async () => {
    const pages = [];
    for (let pageNo = 1; pageNo <= 3; pageNo += 1)
      pages.push((await listCategories(`?pageNo=${pageNo}&pageSize=2`)).body);
    expect(pages.map((p) => p.total)).toEqual([3, 3, 3]);
    expect(pages.map((p) => p.data.map((c) => c.categoryName))).toEqual([['Games', '工具'], ['未分类'], []]);
    const wide = await listCategories('?pageNo=1&pageSize=3');
    expect(wide.body.data.map((c) => c.categoryName)).toEqual(['Games', '工具', '未分类']);
    expect((await listCategories('?pageNo=2&pageSize=3')).body.data).toEqual([]);
  });

  it('renames a category; its apps follow', async () => {
    const id = await createCategory('Old name');
    const appId = await insertApp(server.db, { category_id: id });
    const res = await saveCategory({ id, categoryName: 'New name' });
    expect(res.body).toEqual({ code: 200, msg: 'success', data: { id } });
    expect(await countOf('Old name')).toBeUndefined();
    expect(await countOf('New name')).toBe(1);
    const apps = await server.request<AppListItem[]>('GET', `/api/apps?categoryId=${id}`, { token: admin });
    expect(apps.body.data).toEqual([expect.objectContaining({ appId, categoryId: id, categoryName: 'New name' })]);
    expect((await saveCategory({ id, categoryName: 'NEW NAME' })).body.code).toBe(200);
    const ghost = await saveCategory({ id: 99999, categoryName: 'ghost' });
    expect(ghost).toMatchObject({ status: 404, body: { code: ResultCode.notFound, msg: Messages.categoryNotFound } });
  });

  it('refuses a duplicate name in any letter case with 409', async () => {
    await createCategory('Ärzte');
    const before = (await listCategories()).body.total;
    for (const categoryName of ['Games', 'games', ' GAMES ', '工具', 'Ärzte']) {
      const res = await saveCategory({ categoryName });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: ResultCode.conflict, msg: Messages.categoryExists, data: null });
    }
    const other = await createCategory('Other');
    expect((await saveCategory({ id: other, categoryName: 'gAmEs' })).body.msg).toBe(Messages.categoryExists);
    expect((await listCategories()).body.total).toBe((before ?? 0) + 1);
  });

  it('refuses a category named 未分类, new or renamed, and over-long names', async () => {
    for (const categoryName of ['未分类', ' 未分类 ']) {
      const res = await saveCategory({ categoryName });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: ResultCode.conflict, msg: Messages.categoryBuiltin, data: null });
    }
    const id = await createCategory('Rename me');
    expect((await saveCategory({ id, categoryName: '未分类' })).body.msg).toBe(Messages.categoryBuiltin);
    expect((await categories()).filter((c) => c.categoryName === UNCATEGORISED_NAME)).toHaveLength(1);
    const tooLong = await saveCategory({ categoryName: 'c'.repeat(65) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.msg).toContain('categoryName');
    const blank = await saveCategory({ categoryName: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.msg).toContain('categoryName');
  });

  it('deleting a category moves its apps to 未分类', async () => {
    const id = await createCategory('Doomed');
    const appIds = [await insertApp(server.db, { category_id: id }), await insertApp(server.db, { category_id: id })];
    const uncategorisedBefore = (await countOf(UNCATEGORISED_NAME)) ?? 0;
    expect(await countOf('Doomed')).toBe(2);
    expect((await deleteCategory(id)).body).toEqual({ code: 200, msg: 'success', data: null });
    expect(await countOf('Doomed')).toBeUndefined();
    expect(await countOf(UNCATEGORISED_NAME)).toBe(uncategorisedBefore + 2);
    const apps = await server.request<AppListItem[]>('GET', '/api/apps?categoryId=0', { token: admin });
    const moved = apps.body.data.filter((a) => appIds.includes(a.appId));
    expect(moved.map((a) => [a.categoryId, a.categoryName])).toEqual([
      [null, UNCATEGORISED_NAME],
      [null, UNCATEGORISED_NAME],
    ]);
    // Its name is free again.
    await createCategory('doomed');
  });

  it('refuses deleting an unknown category (404) or the virtual 未分类 (400)', async () => {
    const before = await categories();
    const unknown = await deleteCategory(99999);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: ResultCode.notFound, msg: Messages.categoryNotFound, data: null });
    const virtual = await deleteCategory(0);
    expect(virtual.status).toBe(400);
    expect(virtual.body.msg).toContain('id');
    expect(await categories()).toEqual(before);
  });

  it('plain users may list categories but not create, rename or delete them (403, code 10028)', async () => {
    const { token } = await server.createUser({ username: 'viewer', roleLevel: 20 });
    const listed = await listCategories('', token);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual(await categories());
    const gamesId = (await categories()).find((c) => c.categoryName === 'Games')?.id ?? -1;
    for (const res of [
      await saveCategory({ categoryName: 'Mine' }, token),
      await saveCategory({ id: gamesId, categoryName: 'Mine' }, token),
      await deleteCategory(gamesId, token),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: ResultCode.noPermission, msg: Messages.noPermission, data: null });
    }
    expect(await countOf('Games')).toBe(3);
    expect(await countOf('Mine')).toBeUndefined();
  });
});
