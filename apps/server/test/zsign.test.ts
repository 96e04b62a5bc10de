import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../src/jobs/job-definition.ts';
import { LEASE_MS } from '../src/jobs/queue.ts';
import {
  AppMessages,
  CertMessages,
  VERSION_REMOVE_PATH,
  ZsignMessages,
  type AppVersionRow,
  type CertificateRow,
  type ZsignCertificate,
  type ZsignJob,
} from '@release/contract';
import { makeP12, makeSignedProfile } from '@release/inspect/testing/identities.ts';
import { DAY_MS } from '@release/inspect/testing/validity.ts';
import { buildZip } from '@release/inspect/testing/zip-writer.ts';
import { readEmbeddedSignature } from '../src/signing/code-signature.ts';
import { parseMachO } from '../src/signing/macho.ts';
import { sampleSignedIpa, sampleSigningSet } from '../src/signing/testing/ipa-builder.ts';
import { verifyApp } from '../src/signing/verify-app.ts';
import { bytesAt } from '../src/signing/app-files.ts';
import { testDialects } from './helpers/dialects.ts';
import { insertApp } from './helpers/factories.ts';
import { startTestServer, TEST_CLOCK_START, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';
import { filesOfDownload, P12_PASSWORD as PASSWORD, uploadSigningSet } from './helpers/resign-world.ts';
import { zsignSet as set, zsignWorld } from './helpers/zsign-world.ts';

describe.each(testDialects())('re-signing an ipa version (/api/zsign) on %s', (dialect) => {
  const { world, publish, zsign, versionsOf } = zsignWorld(dialect);
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let appId: number;
  let otherAppId: number;
  let certId: number;
  let cert: CertificateRow;
  let ipaVersion: AppVersionRow;
  beforeAll(() => {
    ({ server, admin, editor, appId, otherAppId, certId, cert, ipaVersion } = world);
  });

  it('offers editors the certificates to choose from, without secrets', async () => {
    const res = await server.request<ZsignCertificate[]>('GET', '/api/zsign/certs', { token: editor.token });
    expect(res.body.data).toEqual([
      {
        id: certId,
        name: 'Apple Development: 韩梅梅 (NEWTEAM001)',
        teamId: 'NEWTEAM001',
        mainBundleId: 'com.example.demo',
        expireTime: expect.any(Number),
        appIds: ['NEWTEAM001.com.example.demo', 'NEWTEAM001.*'],
      },
    ]);
  });

  it('an editor re-signs an ipa version: a new version of the same app, noted, inspected, downloadable, passing the verifier with the new certificate', async () => {
    const res = await zsign({ certId, appVersionId: ipaVersion.id });
    expect([res.body.code, res.body.msg]).toEqual([200, 'success']);
    expect(res.body.data).toMatchObject({
      status: 'done',
      progress: 100,
      stage: 'done',
      error: null,
      appVersionId: ipaVersion.id,
      certId,
    });
    const made = res.body.data.version!;
    expect(made).toMatchObject({
      appId,
      indexNo: ipaVersion.indexNo + 1,
      nativePackageType: 'ios',
      fileName: 'Demo-resigned.ipa',
      appVersion: '1.2.3',
      build: '45',
      bundleId: 'com.example.demo',
      uploadBy: 'editor',
      description: ZsignMessages.note(`#${ipaVersion.indexNo} 1.2.3 (45)`, 'Apple Development: 韩梅梅 (NEWTEAM001)'),
    });
    // Inspected like any upload: the new embedded profile is what the inspector read.
    expect(made.metadata).toMatchObject({
      provisioningProfile: expect.objectContaining({ name: 'Demo Dev', teamId: 'NEWTEAM001' }),
    });
    expect((await versionsOf(appId)).map((v) => v.id)).toContain(made.id);
    const files = await filesOfDownload(made.cdnUrl);
    expect(verifyApp(files)).toEqual([]);
    const binary = bytesAt(files, 'Payload/Demo.app/Demo')!;
    const signature = readEmbeddedSignature(binary, parseMachO(binary).slices[0]!)!;
    expect(signature.certificates[0]?.equals(set.identity.der)).toBe(true);
    expect(signature.codeDirectories[0]?.teamId).toBe('NEWTEAM001');
    // The job can be read back by its id.
    const job = await server.request<ZsignJob>('GET', `/api/zsign/job?id=${res.body.data.id}`, { token: editor.token });
    expect(job.body.data).toMatchObject({ status: 'done', version: { id: made.id } });
  });

  it('refuses what cannot be re-signed with clear messages, and never makes a version', async () => {
    const before = (await versionsOf(appId)).length;
    const apk = await publish(appId, 'shop.apk', buildZip([{ name: 'AndroidManifest.xml', data: 'x' }])).catch(
      () => null,
    );
    expect(apk).toBeNull();
    const zipVersion = await publish(appId, 'web.zip', buildZip([{ name: 'index.html', data: '<title>站点</title>' }]));
    const wrongType = await zsign({ certId, appVersionId: zipVersion.id });
    expect([wrongType.status, wrongType.body.msg]).toEqual([400, ZsignMessages.onlyIpa]);
    const missingCert = await zsign({ certId: 999_999, appVersionId: ipaVersion.id });
    expect([missingCert.status, missingCert.body.msg]).toEqual([404, CertMessages.certificateNotFound]);
    const other = await publish(otherAppId, 'Other.ipa', sampleSignedIpa()).catch(() => null);
    expect(other).toBeNull();
    const otherByAdmin = await (async () => {
      const fileKey = await transferFile(server, admin, 'Other.ipa', sampleSignedIpa());
      return (
        await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
          token: admin,
          body: { appId: otherAppId, s3Url: fileKey },
        })
      ).body.data;
    })();
    // Another app's version: the editor has no permit there (and is not told it exists).
    const foreign = await zsign({ certId, appVersionId: otherByAdmin.id });
    expect([foreign.status, foreign.body.msg]).toEqual([404, AppMessages.appNotFound]);
    const missingVersion = await zsign({ certId, appVersionId: 999_999 });
    expect([missingVersion.status, missingVersion.body.msg]).toEqual([404, ZsignMessages.versionNotFound]);
    const encrypted = await publish(appId, 'Store.ipa', sampleSignedIpa({ encrypted: true }));
    const refusedEncrypted = await zsign({ certId, appVersionId: encrypted.id });
    expect(refusedEncrypted.body.data).toMatchObject({
      status: 'failed',
      error: ZsignMessages.encrypted,
      version: null,
    });
    // A certificate whose only profile is the app's: the widget extension has none.
    const narrow = sampleSigningSet('NARROWTEAM', { now: TEST_CLOCK_START });
    const narrowCert = await uploadSigningSet(server, admin, narrow, ['main']);
    const noProfile = await zsign({ certId: narrowCert.id, appVersionId: ipaVersion.id });
    expect(noProfile.body.data).toMatchObject({
      status: 'failed',
      error: ZsignMessages.noProfile('com.example.demo.widget'),
      version: null,
    });
    // Only the zip and the encrypted ipa were published here; no re-signing made a version.
    expect((await versionsOf(appId)).length).toBe(before + 2);
  });

  it('asking again for the same source with the same certificate and profiles answers with the version made, not another', async () => {
    const before = await versionsOf(appId);
    const first = await zsign({ certId, appVersionId: ipaVersion.id });
    const again = await zsign({ certId, appVersionId: ipaVersion.id });
    expect(first.body.data).toMatchObject({ status: 'done', version: { fileName: 'Demo-resigned.ipa' } });
    expect(again.body.data).toMatchObject({ id: first.body.data.id, version: { id: first.body.data.version?.id } });
    expect((await versionsOf(appId)).map((v) => v.id)).toEqual(before.map((v) => v.id));
    // Once that version is removed, the same ask signs again.
    const removed = await server.request('POST', VERSION_REMOVE_PATH, {
      token: admin,
      body: { id: first.body.data.version?.id, appId },
    });
    expect(removed.body).toMatchObject({ code: 200 });
    const anew = await zsign({ certId, appVersionId: ipaVersion.id });
    expect(anew.body.data).toMatchObject({ status: 'done' });
    expect(anew.body.data.id).not.toBe(first.body.data.id);
    expect(anew.body.data.version?.id).not.toBe(first.body.data.version?.id);
  });

  it('a run that dies before its version exists leaves no version; the job runs again and makes exactly one', async () => {
    // A source not re-signed yet (the same ask would answer with the version made before).
    const source = await publish(appId, 'Demo.ipa', sampleSignedIpa());
    const before = (await versionsOf(appId)).length;
    world.failNextResignedPut = true;
    const first = await zsign({ certId, appVersionId: source.id });
    expect(first.body.data).toMatchObject({
      status: 'pending',
      progress: 0,
      stage: 'queued',
      error: ZsignMessages.retrying,
      version: null,
    });
    expect((await versionsOf(appId)).length).toBe(before);
    server.clock.advance(60_000);
    await server.built.core.jobs.runDue();
    const again = await server.request<ZsignJob>('GET', `/api/zsign/job?id=${first.body.data.id}`, {
      token: editor.token,
    });
    expect(again.body.data).toMatchObject({ status: 'done', progress: 100 });
    const after = await versionsOf(appId);
    expect(after.length).toBe(before + 1);
    expect(after[0]?.id).toBe(again.body.data.version?.id);
  });

  // Near the end: the clock moves on 11 days (sessions are signed in again).
  it('signs only with profiles still current, and names the profile that ran out when no current one covers the app', async () => {
    const team = 'SHORTTEAM1';
    const short = sampleSigningSet(team, { now: TEST_CLOCK_START });
    const ends = new Date(server.clock.now() + 10 * DAY_MS);
    const profile = (name: string, uuid: string, appId: string) =>
      makeSignedProfile(
        [short.identity],
        short.appleSigner,
        {
          Name: name,
          UUID: uuid,
          TeamIdentifier: [team],
          ExpirationDate: ends,
          Entitlements: {
            'application-identifier': appId,
            'com.apple.developer.team-identifier': team,
            'get-task-allow': true,
          },
        } as never,
        TEST_CLOCK_START,
      );
    const form = new FormData();
    form.append('password', PASSWORD);
    form.append('p12', new Blob([new Uint8Array(makeP12(short.identity, PASSWORD))]), 'short.p12');
    form.append(
      'profiles',
      new Blob([
        new Uint8Array(profile('Short Demo', '33333333-3333-3333-3333-333333333333', `${team}.com.example.demo`)),
      ]),
      'main.mobileprovision',
    );
    form.append(
      'profiles',
      new Blob([new Uint8Array(profile('Short Wildcard', '44444444-4444-4444-4444-444444444444', `${team}.*`))]),
      'wildcard.mobileprovision',
    );
    const uploaded = (await (
      await fetch(`${server.url}/api/cert_upload`, { method: 'POST', headers: { token: admin }, body: form })
    ).json()) as { msg: string; data: CertificateRow };
    expect(uploaded.msg).toBe('success');
    const before = (await versionsOf(appId)).length;

    server.clock.advance(11 * DAY_MS);
    const token = await server.adminToken();
    const res = await zsign({ certId: uploaded.data.id, appVersionId: ipaVersion.id }, token);
    expect(res.body.data).toMatchObject({
      status: 'failed',
      error: ZsignMessages.profileExpired('Short Demo', ends.getTime()),
      version: null,
    });
    expect(res.body.data.error).toBe(
      `描述文件「Short Demo」已过期（${ends.toISOString().slice(0, 10)}），请在证书管理中为该证书上传新的描述文件后重试`,
    );
    const after = await server.request<AppVersionRow[]>(
      'GET',
      `/api/app_versions?appId=${appId}&pageNo=1&pageSize=50`,
      { token },
    );
    expect(after.body.data).toHaveLength(before);
  });

  // Last: the clock goes past the certificate's end (sessions end too: the editor signs in again).
  it('refuses a certificate that expired after its upload, saying until when it was valid, and makes no version', async () => {
    server.clock.advance(cert.validTo - server.clock.now());
    const token = await server.adminToken();
    const before = (
      await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}&pageNo=1&pageSize=50`, { token })
    ).body.data.length;
    const expired = await zsign({ certId, appVersionId: ipaVersion.id }, token);
    expect([expired.status, expired.body.msg]).toEqual([
      400,
      ZsignMessages.certificateExpired(cert.name, cert.validTo),
    ]);
    expect(expired.body.msg).toBe(
      `证书「${cert.name}」已过期（有效期至 ${new Date(cert.validTo).toISOString().slice(0, 10)}），请在证书管理中上传有效的证书后重试`,
    );
    const after = await server.request<AppVersionRow[]>(
      'GET',
      `/api/app_versions?appId=${appId}&pageNo=1&pageSize=50`,
      { token },
    );
    expect(after.body.data).toHaveLength(before);
  });
});

describe.each(testDialects())('a long re-signing answers with the job to poll on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { zsignWaitMs: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers at once with a pending job, which the web polls to the new version', async () => {
    const admin = await server.adminToken();
    const appId = await insertApp(server.db);
    const fileKey = await transferFile(server, admin, 'Demo.ipa', sampleSignedIpa());
    const version = (
      await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
        token: admin,
        body: { appId, s3Url: fileKey },
      })
    ).body.data;
    const cert = await uploadSigningSet(server, admin, set, ['wildcard']);
    const res = await server.request<ZsignJob>('POST', '/api/zsign', {
      token: admin,
      body: { certId: cert.id, appVersionId: version.id },
    });
    expect(res.body.data.status).not.toBe('done');
    expect(res.body.data.version).toBeNull();
    await server.built.core.jobs.runDue();
    const polled = await server.request<ZsignJob>('GET', `/api/zsign/job?id=${res.body.data.id}`, { token: admin });
    expect(polled.body.data).toMatchObject({
      status: 'done',
      progress: 100,
      version: { appId, indexNo: 2, fileName: 'Demo-resigned.ipa' },
    });
  });

  it('a run longer than the lease keeps it by renewing (as a large re-signing does), so no other process takes it over', async () => {
    const jobs = server.built.core.jobs;
    let lease: number | null = null;
    const long = defineJob({
      kind: 'test.long-run',
      payload: z.object({}),
      maxAttempts: 1,
      async run(_, job) {
        server.clock.advance(LEASE_MS - 1_000);
        expect(await job.renewLease?.()).toBe(true);
        lease = (await jobs.repository.findById(job.id))?.lease_expire_time ?? null;
        return null;
      },
    });
    jobs.register(long);
    await jobs.enqueue(long, {});
    await jobs.runDue();
    expect(lease).toBe(server.clock.now() + LEASE_MS);
  });
});
