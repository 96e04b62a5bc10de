import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowRow } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const FILE_OFF =
  '本服务器未开启 file:// 仓库（服务器本机上的仓库）：请改用 https://、http://、ssh:// 或 git@主机:路径 地址；确需读取本机仓库时，请管理员按 docs/configuration.md 设置 ALLOW_FILE_REPOSITORIES=true 后重启服务';

// A server on the default settings (ALLOW_FILE_REPOSITORIES=false): addresses it cannot read are refused on save.
describe.each(testDialects())('repository addresses of workflows on a server without file:// on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect, { allowFileRemotes: false });
    admin = await server.adminToken();
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: '星际商城', appType: 'unity', password: '135790', path: 'shop' },
      })
    ).body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
  });

  const save = (body: Record<string, unknown>, path = '/api/workflow') =>
    server.request<{ id: number } | { field: string } | null>('POST', path, {
      token: admin,
      body: { appId, contentType: 'default', tabName: '客户端主干', repoType: 'git', ...body },
    });
  const tabs = async () =>
    (await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })).body.data;

  it('refuses a file:// repository saying it is switched off here and how an admin enables it, and saves nothing', async () => {
    const refused = await save({ repoPath: 'file:///srv/git/shop.git' });
    expect([refused.status, refused.body.msg, refused.body.data]).toEqual([400, FILE_OFF, { field: 'repoPath' }]);
    const svn = await save({ repoType: 'svn', repoPath: 'file:///srv/svn/art' });
    expect(svn.body.msg).toBe(
      FILE_OFF.replace('https://、http://、ssh:// 或 git@主机:路径', 'https://、http://、svn:// 或 svn+ssh://'),
    );
    expect(await tabs()).toEqual([]);
  });

  it('lists only the forms this server accepts when an address is not one of them', async () => {
    const refused = await save({ repoPath: 'git://git.example.com/shop.git' });
    expect([refused.status, refused.body.msg]).toEqual([
      400,
      '仓库地址不合法：仅支持 https://、http://、ssh:// 或 git@主机:路径 地址',
    ]);
    expect((await save({ repoType: 'svn', repoPath: 'ftp://svn.example.com/art' })).body.msg).toBe(
      'SVN 地址不合法：仅支持 https://、http://、svn:// 或 svn+ssh:// 地址',
    );
  });

  it('refuses moving a workflow to an unreadable address, keeps renaming one stored before the switch-off', async () => {
    const created = await save({ repoPath: 'git@git.example.com:game/shop.git' });
    const id = (created.body.data as { id: number }).id;
    const moved = await save({ id, repoPath: 'file:///srv/git/shop.git' }, '/api/workflow/update');
    expect([moved.status, moved.body.msg]).toEqual([400, FILE_OFF]);
    // Stored while the server still allowed file:// (then switched off): the tab says why it does not sync.
    await server.db
      .updateTable('workflows')
      .set({ repo_path: 'file:///srv/git/shop.git' })
      .where('id', '=', id)
      .execute();
    const sync = await server.request<{ created: number; error: string | null }>(
      'POST',
      `/api/workflow/sync?id=${id}`,
      { token: admin },
    );
    expect(sync.body.data).toEqual({ created: 0, error: FILE_OFF });
    expect((await tabs())[0]?.lastSyncError).toBe(FILE_OFF);
    const renamed = await save({ id, tabName: '客户端', repoPath: 'file:///srv/git/shop.git' }, '/api/workflow/update');
    expect(renamed.body.code).toBe(200);
    expect((await tabs())[0]).toMatchObject({
      tabName: '客户端',
      repoPath: 'file:///srv/git/shop.git',
      lastSyncError: FILE_OFF,
    });
  });
});
