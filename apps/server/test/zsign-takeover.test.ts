import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZsignMessages, type AppVersionRow, type ZsignJob } from '@release/contract';
import { backoffMs } from '../src/jobs/job-definition.ts';
import { LEASE_MS } from '../src/jobs/queue.ts';
import { resignedKey } from '../src/modules/zsign/zsign.job.ts';
import { sampleSignedIpa, sampleSigningSet } from '../src/signing/testing/ipa-builder.ts';
import { verifyApp } from '../src/signing/verify-app.ts';
import type { DatabaseHandle } from '../src/db/database.ts';
import { createLocalBlobStore, type LocalBlobStore } from '../src/storage/local-blob-store.ts';
import { createUrlSigner } from '../src/storage/url-signer.ts';
import { testDialects } from './helpers/dialects.ts';
import { insertApp } from './helpers/factories.ts';
import { filesOfDownload, filesUnder, publishPackage, uploadSigningSet } from './helpers/resign-world.ts';
import { startTestServer, TEST_CLOCK_START, TEST_SECRET, type TestServer } from './helpers/test-app.ts';

type StoreTrouble = 'none' | 'cut-midway' | 'stored-answer-lost';

/** A body that breaks off after its first bytes, as a dropped connection to the store does. */
function cutMidway(body: Readable | Buffer): Readable {
  const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
  let seen = 0;
  const cut = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > 512) done(new Error('connection reset by the store'));
      else done(null, chunk);
    },
  });
  cut.on('error', () => source.destroy());
  return source.pipe(cut);
}

describe.each(testDialects())('a re-signing whose process died is taken over after its lease (%s)', (dialect) => {
  let server: TestServer;
  let store: LocalBlobStore;
  let admin: string;
  let appId: number;
  let certId: number;
  let source: AppVersionRow;
  const blobRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'zsign-takeover-blobs-'));
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zsign-takeover-work-'));
  // What the store does to the next writes of a re-signed ipa.
  const trouble: StoreTrouble[] = [];
  // Each removal of a re-signed ipa, with the run's status another process saw at that moment (only committed rows).
  let observer: DatabaseHandle | null = null;
  const removals: Array<{ key: string; committedStatus: string | undefined }> = [];
  // The store refuses removals (as after a crash, the removal never happens).
  let refuseRemovals = false;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      // Nothing runs in the background: the test is every worker there is.
      zsignRunOnRequest: false,
      zsignWaitMs: 0,
      zsignWorkDir: workDir,
      blobs: (clock) => {
        store = createLocalBlobStore({ root: blobRoot, signer: createUrlSigner(TEST_SECRET), clock });
        const put = store.put.bind(store);
        return {
          ...store,
          async put(key, body, options) {
            const now = key.startsWith('packages/resigned/') ? (trouble.shift() ?? 'none') : 'none';
            if (now === 'cut-midway') return put(key, cutMidway(body), options);
            const stored = await put(key, body, options);
            if (now === 'stored-answer-lost') throw new Error('socket hang up after the upload');
            return stored;
          },
          // A re-signed ipa moves in from the local store's scratch folder: the same troubles.
          async adopt(key, file) {
            const now = key.startsWith('packages/resigned/') ? (trouble.shift() ?? 'none') : 'none';
            if (now === 'cut-midway')
              return put(key, cutMidway(fs.createReadStream(file)), { contentType: 'application/octet-stream' });
            const stored = await store.adopt(key, file);
            if (now === 'stored-answer-lost') throw new Error('socket hang up after the upload');
            return stored;
          },
          async delete(key) {
            if (key.startsWith('packages/resigned/') && observer) {
              const runs = await observer.db.selectFrom('resign_jobs').select(['id', 'status']).execute();
              removals.push({ key, committedStatus: runs.find((r) => resignedKey(Number(r.id)) === key)?.status });
            }
            if (refuseRemovals) throw new Error('the store is unreachable');
            return store.delete(key);
          },
        };
      },
    });
    admin = await server.adminToken();
    appId = await insertApp(server.db, { app_name: '接管演示' });
    source = await publishPackage(server, admin, appId, 'Demo.ipa', sampleSignedIpa());
    certId = (await uploadSigningSet(server, admin, sampleSigningSet('NEWTEAM001', { now: TEST_CLOCK_START }))).id;
    observer = await server.openAnotherConnection();
  });
  afterAll(async () => {
    await observer?.destroy();
    await server?.close();
    fs.rmSync(blobRoot, { recursive: true, force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const jobs = () => server.built.core.jobs;
  const versionsOf = async () =>
    (
      await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}&pageNo=1&pageSize=50`, {
        token: admin,
      })
    ).body.data;
  const jobView = async (id: number) =>
    (await server.request<ZsignJob>('GET', `/api/zsign/job?id=${id}`, { token: admin })).body.data;
  const queuedJob = (resignId: number) =>
    server.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'zsign.resign')
      .where('dedupe_key', '=', `zsign:${resignId}`)
      .executeTakeFirstOrThrow();
  const leftovers = () => ({
    work: fs.readdirSync(workDir),
    partial: filesUnder(blobRoot).filter((file) => file.endsWith('.tmp')),
  });

  async function requestResign(): Promise<number> {
    const res = await server.request<ZsignJob>('POST', '/api/zsign', {
      token: admin,
      body: { certId, appVersionId: source.id },
    });
    expect([res.body.code, res.body.msg]).toEqual([200, 'success']);
    // Only queued: no worker of this process started it.
    expect(res.body.data).toMatchObject({ status: 'pending', stage: 'queued', progress: 0, version: null });
    return res.body.data.id;
  }

  it('waits out the dead worker’s lease, then another worker finishes it exactly once: one version, verified, done', async () => {
    const before = (await versionsOf()).length;
    const id = await requestResign();
    // Worker A takes the job, gets to signing, writes part of its result, and its process dies.
    const [claimed] = await jobs().repository.claim('worker-a', server.clock.now(), LEASE_MS, 1);
    expect(claimed?.payload).toBe(JSON.stringify({ resignId: id }));
    await server.db
      .updateTable('resign_jobs')
      .set({ status: 'running', stage: 'sign', progress: 40, update_time: server.clock.now() })
      .where('id', '=', id)
      .execute();
    await store.put(resignedKey(id), Buffer.from('half of an ipa'), { contentType: 'application/octet-stream' });

    // While the lease holds, nobody else starts it, and the user sees how far it got.
    expect(await jobs().runDue()).toBe(0);
    expect(await jobView(id)).toMatchObject({ status: 'running', stage: 'sign', progress: 40, version: null });

    server.clock.advance(LEASE_MS + 1_000);
    expect(await jobs().runDue()).toBe(1);
    const done = await jobView(id);
    expect(done).toMatchObject({
      status: 'done',
      stage: 'done',
      progress: 100,
      error: null,
      version: { appId, fileName: 'Demo-resigned.ipa' },
    });
    const versions = await versionsOf();
    expect(versions.length).toBe(before + 1);
    expect(versions[0]?.id).toBe(done.version?.id);
    // The half-written file was replaced by a whole re-signed ipa that passes the verifier.
    expect(verifyApp(await filesOfDownload(done.version!.cdnUrl))).toEqual([]);
    expect(await queuedJob(id)).toMatchObject({ status: 'done', attempts: 2, lease_owner: null });

    // Worker A's late answer (had it only been frozen) changes nothing, and nothing runs again.
    expect(
      await jobs().repository.finish(
        server.db,
        { id: claimed!.id, owner: 'worker-a' },
        { status: 'failed', error: 'late' },
        server.clock.now(),
      ),
    ).toBe(false);
    server.clock.advance(LEASE_MS + 1_000);
    expect(await jobs().runDue()).toBe(0);
    expect(await jobView(id)).toMatchObject({ status: 'done', version: { id: done.version?.id } });
    expect((await versionsOf()).length).toBe(before + 1);
    expect(leftovers()).toEqual({ work: [], partial: [] });
  });

  it('a re-signing that keeps failing ends failed with a clear message, no version, no stored file and no temp file', async () => {
    // A source not re-signed yet (the same ask would answer with the version made before).
    source = await publishPackage(server, admin, appId, 'Demo.ipa', sampleSignedIpa());
    const before = (await versionsOf()).length;
    const id = await requestResign();
    // The upload breaks off midway; then twice the store keeps the file but its answer is lost.
    trouble.push('cut-midway', 'stored-answer-lost', 'stored-answer-lost');

    expect(await jobs().runDue()).toBe(1);
    expect(await jobView(id)).toMatchObject({
      status: 'pending',
      stage: 'queued',
      progress: 0,
      error: ZsignMessages.retrying,
      version: null,
    });
    expect(leftovers()).toEqual({ work: [], partial: [] });
    expect(await store.stat(resignedKey(id))).toBeNull();

    server.clock.advance(backoffMs(1));
    expect(await jobs().runDue()).toBe(1);
    expect(await jobView(id)).toMatchObject({ status: 'pending', error: ZsignMessages.retrying });
    server.clock.advance(backoffMs(2));
    expect(await jobs().runDue()).toBe(1);

    expect(await jobView(id)).toMatchObject({ status: 'failed', error: ZsignMessages.failed, version: null });
    expect(await queuedJob(id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: 'socket hang up after the upload',
    });
    expect((await versionsOf()).length).toBe(before);
    // The file the store kept on the last try is removed with the failure, once the failure is committed (a removal
    // inside the transaction could outlive a rollback); nothing half-written stays.
    expect(await store.stat(resignedKey(id))).toBeNull();
    expect(removals).toEqual([{ key: resignedKey(id), committedStatus: 'failed' }]);
    expect(leftovers()).toEqual({ work: [], partial: [] });
    server.clock.advance(LEASE_MS + backoffMs(3));
    expect(await jobs().runDue()).toBe(0);
  });

  it('a failed run whose file was not removed then (the process died, the store refused) has it removed by housekeeping', async () => {
    source = await publishPackage(server, admin, appId, 'Demo.ipa', sampleSignedIpa());
    const id = await requestResign();
    trouble.push('stored-answer-lost', 'stored-answer-lost', 'stored-answer-lost');
    refuseRemovals = true;
    expect(await jobs().runDue()).toBe(1);
    server.clock.advance(backoffMs(1));
    expect(await jobs().runDue()).toBe(1);
    server.clock.advance(backoffMs(2));
    expect(await jobs().runDue()).toBe(1);
    expect(await jobView(id)).toMatchObject({ status: 'failed', version: null });
    expect(await store.stat(resignedKey(id))).not.toBeNull();

    refuseRemovals = false;
    server.clock.advance(10 * 60_000);
    await server.built.core.housekeeping.run();
    expect(await store.stat(resignedKey(id))).toBeNull();
    expect(leftovers()).toEqual({ work: [], partial: [] });
  });
});
