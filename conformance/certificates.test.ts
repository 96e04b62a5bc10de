/**
 * Conformance of the certificate reader against the real signing identities of ../shared/fixtures (p12/ and
 * other/isign-credentials/): every p12 form opens with its password, byte-exact against its PEM twin, and
 * the isign set (a certificate, its key and a profile listing it) passes the upload checks, over HTTP too.
 */
import { createHash, createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertMessages, type CertificateRow } from '@release/contract';
import { openP12, P12Error } from '@release/inspect/p12.ts';
import { checkCertificateUpload } from '../apps/server/src/modules/certificates/certificate-check.ts';
import { testDialects } from '../apps/server/test/helpers/dialects.ts';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-app.ts';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const fixturesDir = resolve(repoRoot, process.env.FIXTURES_DIR ?? '../shared/fixtures');
const read = (...parts: string[]) => readFileSync(join(fixturesDir, ...parts));
const sha1 = (der: Buffer) => createHash('sha1').update(der).digest('hex').toUpperCase();
const isignProfile = () => read('other', 'isign-credentials', 'test.mobileprovision');
const isignCertificate = () => new X509Certificate(read('other', 'isign-credentials', 'test.cert.pem'));

// Values recorded in fixtures/SOURCES.md (read with openssl).
const p12Expectations: Record<
  string,
  { password: string; pem: string; commonName: string; teamId: string | null; teamName: string; validTo: string }
> = {
  'rcodesign-self-signed-rsa-apple-distribution.p12': {
    password: 'password',
    pem: 'p12/rcodesign-self-signed-rsa-apple-distribution.pem',
    commonName: 'Apple Distribution: RSA Apple Distribution (test)',
    teamId: 'test',
    teamName: 'RSA Apple Distribution',
    validTo: '2037-07-16',
  },
  'rcodesign-self-signed-rsa-apple-development.p12': {
    password: 'password',
    pem: 'p12/rcodesign-self-signed-rsa-apple-development.pem',
    commonName: 'Apple Development: RSA Apple Development (test)',
    teamId: 'test',
    teamName: 'RSA Apple Development',
    validTo: '2037-07-16',
  },
  'rcodesign-apple-codesign-testuser.p12': {
    password: 'password123',
    pem: '',
    commonName: 'Test User',
    teamId: null,
    teamName: 'PyOxidizer',
    validTo: '2022',
  },
  'derived-isign-test-aes256.p12': {
    password: 'test',
    pem: 'other/isign-credentials/test.cert.pem',
    commonName: 'isign_tests',
    teamId: 'ISIGNTESTS',
    teamName: 'isign tests',
    validTo: '2025-10-19',
  },
};

describe('fixtures/p12', () => {
  const files = readdirSync(join(fixturesDir, 'p12'))
    .filter((name) => name.endsWith('.p12'))
    .sort();

  it('has an expectation for every p12', () => {
    expect(files.filter((name) => !(name in p12Expectations))).toEqual([]);
  });

  it.each(files)('%s opens with its password; certificate byte-exact, key belongs to it', (name) => {
    const expected = p12Expectations[name];
    if (!expected) throw new Error(`no expectation for ${name}`);
    const identity = openP12(read('p12', name), expected.password);
    expect(identity.certificate.commonName).toBe(expected.commonName);
    expect([identity.teamId, identity.teamName]).toEqual([expected.teamId, expected.teamName]);
    expect(identity.certificate.validTo.toISOString()).toContain(expected.validTo);
    expect(new X509Certificate(identity.certificate.der).checkPrivateKey(identity.privateKey)).toBe(true);
    if (expected.pem) {
      const pem = read(...expected.pem.split('/'));
      expect(identity.certificate.sha1).toBe(sha1(new X509Certificate(pem).raw));
      if (pem.includes('PRIVATE KEY')) {
        const publicFromPem = createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' });
        expect(createPublicKey(identity.privateKey).export({ type: 'spki', format: 'der' }).equals(publicFromPem)).toBe(
          true,
        );
      }
    }
  });

  it.each(files)('%s refuses a wrong password', (name) => {
    let reason = 'opened';
    try {
      openP12(read('p12', name), 'not-the-password');
    } catch (error) {
      reason = error instanceof P12Error ? error.reason : String(error);
    }
    expect(reason).toBe('wrongPassword');
  });
});

describe('the isign signing set passes the upload checks', () => {
  const upload = (now: number, p12 = read('p12', 'derived-isign-test-aes256.p12'), password = 'test') =>
    checkCertificateUpload({
      p12,
      password,
      profiles: [{ fileName: 'test.mobileprovision', bytes: isignProfile() }],
      now,
    });

  it('while both were valid: team, wildcard app id, development, two devices, lists the certificate', () => {
    const checked = upload(Date.UTC(2017, 0, 1));
    expect(checked.identity.certificate.sha1).toBe(sha1(isignCertificate().raw));
    expect([checked.groupId, checked.mainBundleId]).toEqual(['ISIGNTESTS', '*']);
    expect(
      checked.profiles.map((p) => [
        p.name,
        p.uuid,
        p.type,
        p.appId,
        p.profile.provisionedDevices.length,
        p.listsCertificate,
      ]),
    ).toEqual([['RDC-Dev', 'f4d8aa37-45a7-4304-960c-1291e1a5a0f3', 'development', 'ISIGNTESTS.*', 2, true]]);
  });

  it('refuses the pair once expired, and a certificate the profile does not list', () => {
    expect(() => upload(Date.UTC(2026, 10, 23))).toThrow(
      CertMessages.certificateExpired(Date.UTC(2025, 9, 19, 19, 13, 7)),
    );
    expect(() => upload(Date.UTC(2017, 11, 1))).toThrow('描述文件「RDC-Dev」已过期（2017-11-28）');
    const rcodesign = read('p12', 'rcodesign-self-signed-rsa-apple-distribution.p12');
    expect(() => upload(Date.UTC(2024, 0, 1), rcodesign, 'password')).toThrow(CertMessages.profileMismatch('RDC-Dev'));
  });

  it.each(readdirSync(join(fixturesDir, 'mobileprovision')).filter((name) => name.endsWith('.mobileprovision')))(
    'fixture profile %s is not accepted for the isign certificate',
    (name) => {
      const profiles = [{ fileName: name, bytes: read('mobileprovision', name) }];
      expect(() =>
        checkCertificateUpload({
          p12: read('p12', 'derived-isign-test-aes256.p12'),
          password: 'test',
          profiles,
          now: Date.UTC(2016, 0, 1),
        }),
      ).toThrow(/不包含该证书|没有苹果签名/);
    },
  );
});

describe.each(testDialects())('/api/cert_upload with the real isign set on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stores and lists it with its team and expiry while valid', async () => {
    const admin = await server.adminToken();
    server.clock.advance(Date.UTC(2017, 0, 1) - server.clock.now());
    const form = new FormData();
    form.append('password', 'test');
    form.append('p12', new Blob([new Uint8Array(read('p12', 'derived-isign-test-aes256.p12'))]), 'isign.p12');
    form.append('profiles', new Blob([new Uint8Array(isignProfile())]), 'test.mobileprovision');
    const response = await fetch(`${server.url}/api/cert_upload`, {
      method: 'POST',
      headers: { token: admin },
      body: form,
    });
    const body = (await response.json()) as { code: number; data: CertificateRow };
    expect(body.code).toBe(200);
    expect(body.data).toMatchObject({
      groupId: 'ISIGNTESTS',
      mainBundleId: '*',
      name: 'isign_tests',
      teamName: 'isign tests',
      expireTime: Date.UTC(2017, 10, 28, 22, 57, 49),
    });
    const listed = await server.request<CertificateRow[]>('GET', '/api/cert_list', { token: admin });
    expect(listed.body.data.map((row) => [row.name, row.profiles.map((p) => p.name)])).toEqual([
      ['isign_tests', ['RDC-Dev']],
    ]);
  });
});
