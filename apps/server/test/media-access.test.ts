import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDetail, AppListItem, CommitLogItem } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { grantApp, insertApp } from './helpers/factories.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { testStore } from './helpers/s3-server.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(600, 3)]);
const DAY = 24 * 3600_000;
const REFUSED = '图片或视频链接无效或已过期，请刷新页面后重试';
const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);

const bare = (url: string) => url.split('?')[0] ?? url;
const keyOf = (url: string) => /\/api\/media\/(media\/[^?]+)/.exec(url)?.[1] ?? '';

// Who may fetch an app's icons and screenshots: those shown them (a signed link), never a bare link.
describe.each(combos)('media of an app on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let closeStore: () => Promise<void>;
  let admin: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let outsider: { userId: number; token: string };
  let appId: number;

  beforeAll(async () => {
    const chosen = await testStore(store);
    closeStore = chosen.close;
    server = await startTestServer(dialect, { blobs: chosen.blobs });
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor' });
    viewer = await server.createUser({ username: 'viewer' });
    outsider = await server.createUser({ username: 'outsider' });
    appId = await insertApp(server.db, { app_name: '星际战舰', path: 'star' });
    await grantApp(server.db, appId, editor.userId, 'edit');
    await grantApp(server.db, appId, viewer.userId, 'view');
  });
  afterAll(async () => {
    await server?.close();
    await closeStore?.();
  });

  async function upload(type: 'app' | 'media', file: { name: string; mime: string; data: Buffer }) {
    const body = new FormData();
    body.append('type', type);
    body.append('file', new Blob([file.data], { type: file.mime }), file.name);
    const res = await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { token: editor.token }, body });
    const json = (await res.json()) as { code: number; data: { url: string; key: string } };
    expect(json.code).toBe(200);
    return json.data;
  }

  // As a browser's <img> asks: no session header. One connection per request, so none is left open between tests.
  async function fetchMedia(url: string) {
    const res = await rawRequest(url.startsWith('/') ? `${server.url}${url}` : url, {
      headers: { connection: 'close' },
    });
    return {
      status: res.status,
      bytes: res.body,
      cache: res.headers['cache-control'] ?? null,
      msg: res.status === 200 ? null : (JSON.parse(res.body.toString()) as { msg: string }).msg,
    };
  }

  it("an app icon: stored as /api/media/<key>, shown signed to the app's members, refused as a bare link and to anyone without one", async () => {
    const uploaded = await upload('app', { name: 'icon.png', mime: 'image/png', data: PNG });
    // The uploader's own preview works at once.
    expect(await fetchMedia(uploaded.url)).toMatchObject({ status: 200, bytes: PNG });
    const saved = await server.request('POST', '/api/app', {
      token: admin,
      body: {
        appId,
        appName: '星际战舰',
        appType: 'unity',
        password: '135790',
        path: 'star',
        appIcon: uploaded.url,
        distributeUsers: [
          { userId: editor.userId, permit: 'edit' },
          { userId: viewer.userId, permit: 'view' },
        ],
      },
    });
    expect(saved.status).toBe(200);
    const row = await server.db.selectFrom('apps').select('app_icon').where('id', '=', appId).executeTakeFirstOrThrow();
    expect(row.app_icon).toBe(`/api/media/${uploaded.key}`);

    const list = await server.request<AppListItem[]>('GET', '/api/apps?pageNo=1&pageSize=20', { token: viewer.token });
    const listed = list.body.data.find((a) => a.appId === appId)?.appIcon ?? '';
    expect(listed).toMatch(/^\/api\/media\/media\/.+\.png\?expires=\d+&signature=[\w-]+$/);
    const shown = await fetchMedia(listed);
    expect(shown).toMatchObject({ status: 200, bytes: PNG });
    expect(shown.cache).toMatch(/^private, max-age=\d+/);
    const detail = await server.request<AppDetail>('GET', `/api/app?appId=${appId}`, { token: viewer.token });
    expect(await fetchMedia(detail.body.data.appIcon ?? '')).toMatchObject({ status: 200, bytes: PNG });

    // Someone without a permit sees neither the app nor a link; the bare address or a forged signature is refused.
    const theirs = await server.request<AppListItem[]>('GET', '/api/apps?pageNo=1&pageSize=20', {
      token: outsider.token,
    });
    expect(theirs.body.data.map((a) => a.appId)).not.toContain(appId);
    expect([403, 404]).toContain(
      (await server.request('GET', `/api/app?appId=${appId}`, { token: outsider.token })).status,
    );
    expect(await fetchMedia(bare(listed))).toMatchObject({ status: 403, msg: REFUSED });
    expect(await fetchMedia(`${bare(listed)}?expires=${Date.now() + DAY}&signature=forged`)).toMatchObject({
      status: 403,
      msg: REFUSED,
    });
    // A signature is for its own key: moved onto another key it is refused.
    const other = await upload('app', { name: 'other.png', mime: 'image/png', data: PNG });
    expect(await fetchMedia(`/api/media/${other.key}?${listed.split('?')[1] ?? ''}`)).toMatchObject({
      status: 403,
      msg: REFUSED,
    });
  });

  it('screenshots and videos of an update item: kept unsigned, signed in the list and the detail, other sites left as they are', async () => {
    const workflowId = (
      await server.request<{ id: number }>('POST', '/api/workflow', {
        token: admin,
        body: { appId, contentType: 'custom', manageType: 'other', tabName: '客户端' },
      })
    ).body.data.id;
    const workflow = await server.built.core.shared.workflows.findById(workflowId);
    if (!workflow) throw new Error('workflow missing');
    const commitId = 'a'.repeat(40);
    await server.built.core.shared.ingest.ingestCommits(workflow, [
      {
        commitId,
        branch: 'main',
        authorName: 'alice',
        authorEmail: null,
        commitTime: server.clock.now(),
        message: 'feat: 新关卡',
        tags: [],
        tagSummary: [],
        url: null,
        files: { added: [], modified: [], removed: [] },
      },
    ]);
    const log = await server.db
      .selectFrom('commit_logs')
      .select('id')
      .where('commit_id', '=', commitId)
      .executeTakeFirstOrThrow();
    const video = await upload('media', { name: 'clip.mp4', mime: 'video/mp4', data: MP4 });
    const elsewhere = 'https://cdn.example.com/shots/1.png';
    const updated = await server.request('POST', '/api/commit_log/update', {
      token: editor.token,
      body: { id: log.id, description: '录屏', fileUrls: JSON.stringify([video.url, elsewhere]) },
    });
    expect(updated.status).toBe(200);
    const stored = await server.db
      .selectFrom('commit_logs')
      .select('file_urls')
      .where('id', '=', log.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.file_urls)).toEqual([`/api/media/${video.key}`, elsewhere]);

    const page = await server.request<{ list: CommitLogItem[] }>(
      'GET',
      `/api/commit_log_list?workflowIds=${workflowId}&pageNo=1&pageSize=20`,
      { token: viewer.token },
    );
    const urls = page.body.data.list.find((i) => i.commitId === commitId)?.fileUrls ?? [];
    expect(urls[1]).toBe(elsewhere);
    expect(keyOf(urls[0] ?? '')).toBe(video.key);
    expect(await fetchMedia(urls[0] ?? '')).toMatchObject({ status: 200, bytes: MP4 });
    const detail = await server.request<{ fileUrls: string[] }>(
      'GET',
      `/api/commit_log/detail?commitId=${commitId}&workflowId=${workflowId}`,
      { token: viewer.token },
    );
    expect(await fetchMedia(detail.body.data.fileUrls[0] ?? '')).toMatchObject({ status: 200, bytes: MP4 });
    expect([403, 404]).toContain(
      (
        await server.request('GET', `/api/commit_log_list?workflowIds=${workflowId}&pageNo=1&pageSize=20`, {
          token: outsider.token,
        })
      ).status,
    );
    expect(await fetchMedia(bare(urls[0] ?? ''))).toMatchObject({ status: 403, msg: REFUSED });
  });

  it('the install page gate shows the icon without a session; links end after at most two days and the next answer carries a fresh one', async () => {
    const brief = await fetch(`${server.url}/api/app_version/app?url=star`);
    const icon = ((await brief.json()) as { data: { appIcon: string } }).data.appIcon;
    expect(await fetchMedia(icon)).toMatchObject({ status: 200, bytes: PNG });

    server.clock.advance(2 * DAY);
    expect(await fetchMedia(icon)).toMatchObject({ status: 403, msg: REFUSED });
    const list = await server.request<AppListItem[]>('GET', '/api/apps?pageNo=1&pageSize=20', { token: viewer.token });
    expect(list.body).toMatchObject({ code: 200 });
    const fresh = list.body.data.find((a) => a.appId === appId)?.appIcon ?? '';
    expect(fresh).not.toBe(icon);
    expect(await fetchMedia(fresh)).toMatchObject({ status: 200, bytes: PNG });
  });
});
