/**
 * The whole path a user takes, with the real signing sets of the fixtures, on SQLite and PostgreSQL: the p12 and
 * its profile through /api/cert_upload, a fixture ipa published as a version, re-signed through /api/zsign, and
 * the downloaded new version passing the verifier with the new signer in every Mach-O. The ipas are the one with
 * an app extension (appinfo-embedded) and the one with a framework (isign-isignFrameworksTestApp).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZsignMessages, type ZsignJob } from '@release/contract';
import { makeAppleIdentity, makeSignedProfile } from '@release/inspect/testing/identities.ts';
import { readEmbeddedSignature } from '../apps/server/src/signing/code-signature.ts';
import { parseMachO } from '../apps/server/src/signing/macho.ts';
import { bytesAt } from '../apps/server/src/signing/app-files.ts';
import { openP12 } from '@release/inspect/p12.ts';
import { verifyApp } from '../apps/server/src/signing/verify-app.ts';
import { testDialects } from '../apps/server/test/helpers/dialects.ts';
import { insertApp } from '../apps/server/test/helpers/factories.ts';
import { filesOfDownload, publishPackage } from '../apps/server/test/helpers/resign-world.ts';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-app.ts';
import { expectations, fixturesDir } from './macho-expectations.ts';

const read = (...parts: string[]) => readFileSync(resolve(fixturesDir, ...parts));
const IPAS = ['appinfo-embedded.ipa', 'isign-isignFrameworksTestApp.ipa'];

interface SigningSet {
  label: string;
  /** When the pair is valid (the test clock is set there). */
  at: number;
  p12: Buffer;
  password: string;
  profile: Buffer;
  certificateName: string;
}

function rcodesignSet(): SigningSet {
  const identity = openP12(read('p12', 'rcodesign-self-signed-rsa-apple-development.p12'), 'password');
  // No fixture profile lists this certificate: one is made for it, signed by a stand-in for Apple.
  const profile = makeSignedProfile(
    [{ der: identity.certificate.der }],
    makeAppleIdentity({ commonName: 'Apple iPhone OS Provisioning Profile Signing', teamId: 'APPLE' }),
    {
      Name: 'rcodesign test',
      UUID: '0a0b0c0d-0000-4000-8000-000000000002',
      TeamIdentifier: ['test'],
      ExpirationDate: new Date('2037-01-01T00:00:00Z'),
      Entitlements: {
        'application-identifier': 'test.*',
        'com.apple.developer.team-identifier': 'test',
        'get-task-allow': true,
      },
    },
  );
  return {
    label: 'rcodesign development',
    at: Date.UTC(2026, 10, 22, 8),
    p12: read('p12', 'rcodesign-self-signed-rsa-apple-development.p12'),
    password: 'password',
    profile,
    certificateName: 'Apple Development: RSA Apple Development (test)',
  };
}

const isignSet = (): SigningSet => ({
  label: 'isign',
  at: Date.UTC(2017, 0, 1),
  p12: read('p12', 'derived-isign-test-aes256.p12'),
  password: 'test',
  profile: read('other', 'isign-credentials', 'test.mobileprovision'),
  certificateName: 'isign_tests',
});

describe.each(testDialects())('/api/cert_upload and /api/zsign with the real signing sets on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  // isign first: its pair was valid in 2017, the clock only moves forward.
  it.each([
    { identity: 'isign', makeSet: isignSet },
    { identity: 'rcodesign development', makeSet: rcodesignSet },
  ])(
    '$identity: the extension and framework fixtures re-signed through the API pass the verifier',
    async ({ makeSet }) => {
      const set = makeSet();
      server.clock.advance(set.at - server.clock.now());
      const admin = await server.adminToken();
      const form = new FormData();
      form.append('password', set.password);
      form.append('p12', new Blob([new Uint8Array(set.p12)]), `${set.label}.p12`);
      form.append('profiles', new Blob([new Uint8Array(set.profile)]), `${set.label}.mobileprovision`);
      const uploaded = (await (
        await fetch(`${server.url}/api/cert_upload`, { method: 'POST', headers: { token: admin }, body: form })
      ).json()) as { code: number; msg: string; data: { id: number; name: string } };
      expect([uploaded.code, uploaded.msg, uploaded.data.name]).toEqual([200, 'success', set.certificateName]);
      const signer = openP12(set.p12, set.password).certificate.der;

      for (const ipa of IPAS) {
        const appId = await insertApp(server.db, { app_name: `${set.label} ${ipa}` });
        const source = await publishPackage(server, admin, appId, ipa, read('ipa', ipa));
        const res = await server.request<ZsignJob>('POST', '/api/zsign', {
          token: admin,
          body: { certId: uploaded.data.id, appVersionId: source.id },
        });
        expect([ipa, res.body.data.status, res.body.data.error]).toEqual([ipa, 'done', null]);
        const made = res.body.data.version!;
        expect(made).toMatchObject({
          appId,
          indexNo: source.indexNo + 1,
          bundleId: source.bundleId,
          appVersion: source.appVersion,
          description: ZsignMessages.note(
            `#${source.indexNo} ${source.appVersion} (${source.build})`,
            set.certificateName,
          ),
        });
        const files = await filesOfDownload(made.cdnUrl);
        expect([ipa, verifyApp(files)]).toEqual([ipa, []]);
        // Every Mach-O of the fixture (the app, its extension or framework) now carries the new signer.
        for (const binary of expectations[ipa] ?? []) {
          const bytes = bytesAt(files, binary.path)!;
          const slice = parseMachO(bytes).slices[0]!;
          expect([binary.path, readEmbeddedSignature(bytes, slice)?.certificates[0]?.equals(signer)]).toEqual([
            binary.path,
            true,
          ]);
        }
      }
    },
  );
});
