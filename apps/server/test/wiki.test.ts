import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LarkFake } from '@release/fakes';
import type { WikiNode, WikiSpaceList } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { DOCS_BASE_URL, startDocsFake, startDocsServer } from './helpers/lark-docs-world.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

describe.each(testDialects())('wiki spaces and nodes through Lark on %s', (dialect) => {
  let lark: LarkFake;
  let server: TestServer;
  let user: string;
  let parent: { node_token: string };

  beforeAll(async () => {
    lark = await startDocsFake();
    // 55 spaces the bot belongs to (two pages of 50) and one it does not.
    for (let i = 1; i <= 55; i += 1)
      lark.addWikiSpace({ space_id: String(8000 + i), name: `空间${String(i).padStart(2, '0')}` });
    lark.addWikiSpace({ space_id: '9999', name: '机器人不在的空间', botIsMember: false });
    parent = lark.addWikiNode({ space_id: '8001', title: '发布手册' });
    lark.addWikiNode({ space_id: '8001', title: '常见问题', obj_type: 'sheet' });
    for (let i = 1; i <= 53; i += 1)
      lark.addWikiNode({ space_id: '8001', title: `第${i}章`, parent_node_token: parent.node_token });
    server = await startDocsServer(dialect, lark);
    user = (await server.createUser({ username: 'reader' })).token;
  });
  afterAll(async () => {
    await server?.close();
    await lark?.close();
  });

  const calls = (route: string) => lark.requests.filter((r) => r.route === route);

  it('lists every space the app belongs to, following Lark pages', async () => {
    const before = calls('wiki.space.list').length;
    const res = await server.request<WikiSpaceList>('GET', '/api/wiki/space/list', { token: user });
    expect(res.body.data.configured).toBe(true);
    expect(res.body.data.items).toHaveLength(55);
    expect(res.body.data.items[0]).toEqual({
      spaceId: '8001',
      name: '空间01',
      description: '',
      spaceType: 'team',
      visibility: 'private',
    });
    expect(res.body.data.items.map((s) => s.name)).not.toContain('机器人不在的空间');
    const pages = calls('wiki.space.list').slice(before);
    expect(pages.map((r) => r.query.page_size)).toEqual(['50', '50']);
    expect(pages[0]?.headers.authorization).toMatch(/^Bearer t-/);
  });

  it('lists a space root, then the children of a node across pages, each opening in Lark', async () => {
    const root = await server.request<WikiNode[]>('GET', '/api/wiki/node/list?spaceId=8001', { token: user });
    expect(root.body.data.map((n) => [n.title, n.objType, n.hasChild])).toEqual([
      ['发布手册', 'docx', true],
      ['常见问题', 'sheet', false],
    ]);
    expect(root.body.data[0]?.url).toBe(`${DOCS_BASE_URL}/wiki/${parent.node_token}`);
    const before = calls('wiki.node.list').length;
    const children = await server.request<WikiNode[]>(
      'GET',
      `/api/wiki/node/list?spaceId=8001&parentNodeToken=${parent.node_token}`,
      { token: user },
    );
    expect(children.body.data).toHaveLength(53);
    expect(children.body.data[52]?.title).toBe('第53章');
    expect(calls('wiki.node.list').length - before).toBe(2);
  });

  it('says what Lark refused: a space the bot is not in, a missing node, a bad space id', async () => {
    const closed = await server.request('GET', '/api/wiki/node/list?spaceId=9999', { token: user });
    expect([closed.status, closed.body.msg]).toEqual([400, expect.stringContaining('飞书应用不是该知识空间的成员')]);
    const missing = await server.request('GET', '/api/wiki/node/list?spaceId=8001&parentNodeToken=wikcnNope', {
      token: user,
    });
    expect([missing.status, missing.body.msg]).toEqual([404, expect.stringContaining('131005')]);
    const empty = await server.request('GET', '/api/wiki/node/list?spaceId=', { token: user });
    expect(empty.status).toBe(400);
  });

  it('fetches a new tenant token once when Lark revoked the old one early', async () => {
    await server.request('GET', '/api/wiki/space/list', { token: user });
    for (const t of lark.state.tenantTokens) lark.revokeToken(t.token);
    const tokenCalls = calls('auth.tenant_access_token').length;
    const res = await server.request<WikiSpaceList>('GET', '/api/wiki/space/list', { token: user });
    expect(res.body.data.items).toHaveLength(55);
    expect(calls('auth.tenant_access_token').length - tokenCalls).toBe(1);
  });

  it('needs a signed-in user', async () => {
    expect((await server.request('GET', '/api/wiki/space/list')).status).toBe(401);
  });

  it('tells the page Lark is not configured instead of failing', async () => {
    const bare = await startTestServer(dialect);
    try {
      const token = await bare.adminToken();
      const spaces = await bare.request<WikiSpaceList>('GET', '/api/wiki/space/list', { token });
      expect(spaces.body.data).toEqual({ configured: false, items: [] });
      const nodes = await bare.request('GET', '/api/wiki/node/list?spaceId=8001', { token });
      expect([nodes.status, nodes.body.msg]).toEqual([
        400,
        '未配置飞书应用：请管理员设置 LARK_APP_ID 与 LARK_APP_SECRET',
      ]);
      const event = await bare.request('POST', '/api/lark/event', {
        body: { challenge: 'x', type: 'url_verification' },
      });
      expect(event.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
