import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORRUPT_JSON_WARNING } from '../src/db/json-column.ts';
import { testDialects } from './helpers/dialects.ts';
import { insertApp } from './helpers/factories.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { testStore } from './helpers/s3-server.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 5)]);
const HOUR = 3600_000;
const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);

// Housekeeping deletes the pictures no record names once MEDIA_GRACE_HOURS (24 here) have passed; named ones stay.
describe.each(combos)('unreferenced media removed after the grace period on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let closeStore: () => Promise<void>;
  let admin: string;

  beforeAll(async () => {
    const chosen = await testStore(store);
    closeStore = chosen.close;
    server = await startTestServer(dialect, { blobs: chosen.blobs });
    admin = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
    await closeStore?.();
  });

  async function upload(type: 'app' | 'media') {
    const body = new FormData();
    body.append('type', type);
    body.append('file', new Blob([PNG], { type: 'image/png' }), 'a.png');
    const res = await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { token: admin }, body });
    return ((await res.json()) as { data: { url: string; key: string } }).data;
  }
  const exists = async (key: string) => (await server.blobs.stat(key)) !== null;
  const listed = async (key: string) =>
    (await server.db.selectFrom('media_files').select('key').where('key', '=', key).executeTakeFirst()) !== undefined;

  it('keeps app icons, version icons and screenshots; deletes a picture never saved and an icon replaced, not before 24 hours', async () => {
    const appId = await insertApp(server.db, { app_name: '星图', path: `stars-${store}` });
    const saveIcon = (url: string) =>
      server.request('POST', '/api/app', {
        token: admin,
        body: { appId, appName: '星图', appType: 'unity', password: '135790', path: `stars-${store}`, appIcon: url },
      });
    const replaced = await upload('app');
    expect((await saveIcon(replaced.url)).status).toBe(200);
    const icon = await upload('app');
    expect((await saveIcon(icon.url)).status).toBe(200);
    const neverSaved = await upload('media');
    const shot = await upload('media');
    const workflowId = (
      await server.request<{ id: number }>('POST', '/api/workflow', {
        token: admin,
        body: { appId, contentType: 'custom', manageType: 'other', tabName: '关卡' },
      })
    ).body.data.id;
    const workflow = await server.built.core.shared.workflows.findById(workflowId);
    if (!workflow) throw new Error('workflow missing');
    const commitId = `${store}${'b'.repeat(40 - store.length)}`;
    await server.built.core.shared.ingest.ingestCommits(workflow, [
      {
        commitId,
        branch: 'main',
        authorName: 'bob',
        authorEmail: null,
        commitTime: server.clock.now(),
        message: '新地图',
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
    expect(
      (
        await server.request('POST', '/api/commit_log/update', {
          token: admin,
          body: { id: log.id, description: '', fileUrls: JSON.stringify([shot.url, 'https://cdn.example.com/x.png']) },
        })
      ).status,
    ).toBe(200);
    // A package's icon, stored by the server itself and named by its version.
    const versionIcon = await server.built.core.shared.media.storeImage(PNG, 'image/png');
    const now = server.clock.now();
    await server.db
      .insertInto('app_versions')
      .values({
        app_id: appId,
        index_no: 1,
        native_package_type: 'android',
        file_key: 'packages/x.apk',
        file_name: 'x.apk',
        app_size: 1,
        icon_key: versionIcon,
        description: '',
        attach_files: '[]',
        metadata: '{}',
        warnings: '[]',
        create_time: now,
        update_time: now,
      })
      .execute();
    const kept = [icon.key, shot.key, versionIcon];
    const gone = [replaced.key, neverSaved.key];

    server.clock.advance(23 * HOUR);
    expect(await server.built.core.shared.media.purgeUnreferenced(server.clock.now())).toBe(0);
    for (const key of [...kept, ...gone]) expect([key, await exists(key)]).toEqual([key, true]);

    server.clock.advance(2 * HOUR);
    expect(await server.built.core.shared.media.purgeUnreferenced(server.clock.now())).toBe(2);
    for (const key of kept) expect([key, await exists(key), await listed(key)]).toEqual([key, true, true]);
    for (const key of gone) expect([key, await exists(key), await listed(key)]).toEqual([key, false, false]);
    // What stays is still served; a run later finds nothing more to do.
    const app = await server.request<{ appIcon: string }>('GET', `/api/app?appId=${appId}`, { token: admin });
    expect(
      (await rawRequest(`${server.url}${app.body.data.appIcon}`, { headers: { connection: 'close' } })).status,
    ).toBe(200);
    expect(await server.built.core.shared.media.purgeUnreferenced(server.clock.now())).toBe(0);
  });

  it('an update item whose stored links are damaged reads as naming none, with one warning naming the column; the screenshots its text mentions are kept', async () => {
    const shot = await upload('media');
    const neverSaved = await upload('media');
    // Each combination its own text: a warning is given once per column and text.
    await server.db
      .updateTable('commit_logs')
      .set({ file_urls: `["${shot.url}", "${dialect}-${store}"` })
      .execute();
    const warnings: Error[] = [];
    const onWarning = (warning: Error & { code?: string }) => {
      if (warning.code === CORRUPT_JSON_WARNING) warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      server.clock.advance(25 * HOUR);
      // The picture never saved, and the earlier screenshot the item's new text no longer mentions.
      expect(await server.built.core.shared.media.purgeUnreferenced(server.clock.now())).toBe(2);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message)).toEqual([
        expect.stringContaining('stored JSON in commit_logs.file_urls is unreadable'),
      ]);
    } finally {
      process.off('warning', onWarning);
    }
    expect([await exists(shot.key), await exists(neverSaved.key)]).toEqual([true, false]);
  });
});
