import { createPublicKey, sign, verify, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertMessages, ResultCode, type CertificateRow } from '@release/contract';
import { makeAppleIdentity, makeP12, makeSignedProfile, type P12Kind } from '@release/inspect/testing/identities.ts';
import { xmlPlist, profileDict } from '@release/inspect/testing/packages.ts';
import { toBerChunked, type TestIdentity } from '@release/inspect/testing/signing.ts';
import { currentValidity } from '@release/inspect/testing/validity.ts';
import forge from 'node-forge';
import { appleCa, caNamedLike } from '../src/signing/testing/apple-ca.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, TEST_CLOCK_START, type ApiResponse, type TestServer } from './helpers/test-app.ts';

// The test clock stands at 2026-11-22: identities and profiles are current then (a month old, a year to go),
// the expired and not-yet-valid ones below say their dates.
const NOW = TEST_CLOCK_START;
const valid = currentValidity(NOW);
const apple = makeAppleIdentity({
  teamId: 'ABCDE12345',
  teamName: '示例科技有限公司',
  commonName: 'Apple Development: 张三 (ABCDE12345)',
  serial: '7f01a2',
  now: NOW,
});
const appleSigner = makeAppleIdentity({
  commonName: 'Apple iPhone OS Provisioning Profile Signing',
  teamId: 'APPLE',
  now: NOW,
});
const stranger = makeAppleIdentity({
  teamId: 'ZZZZZ99999',
  commonName: 'Apple Distribution: Someone Else (ZZZZZ99999)',
  now: NOW,
});
const signedProfile = (listed: TestIdentity[], overrides: Parameters<typeof makeSignedProfile>[2] = {}) =>
  makeSignedProfile(listed, appleSigner, overrides, NOW);
const PASSWORD = 'p12-pass-2026';
// Chinese passwords work in both forms (UTF-16 for the MAC and legacy ciphers, UTF-8 for OpenSSL 3's PBES2).
const CHINESE_PASSWORD = '证书密码2026';

const profiles = {
  development: signedProfile([apple], {
    Name: 'Demo Development',
    UUID: '11111111-2222-3333-4444-555555555555',
    TeamIdentifier: ['ABCDE12345'],
    Entitlements: { 'application-identifier': 'ABCDE12345.com.example.demo', 'get-task-allow': true },
  }),
  extension: signedProfile([stranger, apple], {
    Name: 'Demo Widget Ad Hoc',
    UUID: '66666666-7777-8888-9999-000000000000',
    TeamIdentifier: ['ABCDE12345'],
    Entitlements: { 'application-identifier': 'ABCDE12345.com.example.demo.widget', 'get-task-allow': false },
  }),
  enterprise: signedProfile([apple], {
    Name: 'Demo In House',
    UUID: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
    ProvisionedDevices: undefined,
    ProvisionsAllDevices: true,
    Entitlements: { 'application-identifier': 'ABCDE12345.*' },
  }),
  appStore: signedProfile([apple], {
    Name: 'Demo App Store',
    UUID: 'ffffffff-0000-1111-2222-333333333333',
    ProvisionedDevices: undefined,
    Entitlements: { 'application-identifier': 'ABCDE12345.com.example.demo', 'beta-reports-active': true },
  }),
  notListing: signedProfile([stranger], { Name: 'Someone Else Profile', UUID: '99999999-0000-0000-0000-000000000001' }),
  expired: signedProfile([apple], {
    Name: 'Old Profile',
    UUID: '99999999-0000-0000-0000-000000000002',
    ExpirationDate: new Date('2026-11-01T00:00:00Z'),
  }),
};

/** A p12 holding `keyOwner`'s private key but `certificateOwner`'s certificate. */
function makeP12WithKeyOf(keyOwner: TestIdentity, certificateOwner: TestIdentity): Buffer {
  const asn1 = forge.pkcs12.toPkcs12Asn1(keyOwner.key, [certificateOwner.certificate], PASSWORD, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

interface FormFile {
  field: string;
  name: string;
  bytes: Buffer;
}

describe.each(testDialects())('certificates on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let plain: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    plain = (await server.createUser({ username: 'tester', roleLevel: 30 })).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function upload(
    files: FormFile[],
    password: string | null = PASSWORD,
    token = admin,
  ): Promise<ApiResponse<CertificateRow>> {
    const form = new FormData();
    if (password !== null) form.append('password', password);
    for (const file of files) form.append(file.field, new Blob([new Uint8Array(file.bytes)]), file.name);
    const response = await fetch(`${server.url}/api/cert_upload`, { method: 'POST', headers: { token }, body: form });
    return { status: response.status, body: (await response.json()) as ApiResponse<CertificateRow>['body'] };
  }
  const p12 = (kind: P12Kind = 'openssl-legacy', identity = apple, password = PASSWORD): FormFile => ({
    field: 'p12',
    name: 'dev.p12',
    bytes: makeP12(identity, password, kind),
  });
  const profile = (bytes: Buffer, name = 'demo.mobileprovision'): FormFile => ({ field: 'profiles', name, bytes });
  const list = async () =>
    (await server.request<CertificateRow[]>('GET', '/api/cert_list', { token: admin })).body.data;
  const remove = (id: number, token = admin) => server.request('DELETE', `/api/cert?id=${id}`, { token });

  it('reads a Keychain-style (RC2/3DES) p12 with its profiles: subject, team, serial, SHA-1, validity, profile details', async () => {
    const res = await upload(
      [
        p12('openssl-legacy', apple, CHINESE_PASSWORD),
        profile(profiles.development),
        profile(profiles.extension, 'widget.mobileprovision'),
      ],
      CHINESE_PASSWORD,
    );
    expect(res.status).toBe(200);
    const row = res.body.data;
    expect(row).toMatchObject({
      groupId: 'ABCDE12345',
      mainBundleId: 'com.example.demo',
      name: 'Apple Development: 张三 (ABCDE12345)',
      teamId: 'ABCDE12345',
      teamName: '示例科技有限公司',
      serialNumber: '7F01A2',
      sha1: apple.sha1,
      validFrom: valid.from.getTime(),
      validTo: valid.to.getTime(),
      expireTime: valid.to.getTime(),
      uploadBy: 'admin',
    });
    expect(row.subject).toContain('OU=ABCDE12345');
    expect(row.profiles).toEqual([
      {
        id: expect.any(Number),
        name: 'Demo Development',
        uuid: '11111111-2222-3333-4444-555555555555',
        type: 'development',
        teamId: 'ABCDE12345',
        appId: 'ABCDE12345.com.example.demo',
        bundleId: 'com.example.demo',
        devices: ['00008030-001A2B3C4D5E6F70', '00008101-000A1B2C3D4E5F60'],
        provisionsAllDevices: false,
        expireTime: valid.to.getTime(),
        listsCertificate: true,
      },
      expect.objectContaining({
        name: 'Demo Widget Ad Hoc',
        type: 'ad-hoc',
        bundleId: 'com.example.demo.widget',
        listsCertificate: true,
      }),
    ]);
    expect(await list()).toEqual([row]);
    expect((await remove(row.id)).body.code).toBe(200);
  });

  it.each<P12Kind>(['openssl-aes', 'forge-3des'])(
    'reads a %s p12 and a BER-chunked profile; enterprise and App Store types',
    async (kind) => {
      const res = await upload(
        [p12(kind, apple, CHINESE_PASSWORD), profile(toBerChunked(profiles.enterprise)), profile(profiles.appStore)],
        CHINESE_PASSWORD,
      );
      expect(res.status).toBe(200);
      expect(res.body.data.sha1).toBe(apple.sha1);
      expect(res.body.data.mainBundleId).toBe('com.example.demo');
      expect(res.body.data.profiles.map((p) => [p.name, p.type, p.provisionsAllDevices, p.devices.length])).toEqual([
        ['Demo In House', 'enterprise', true, 0],
        ['Demo App Store', 'app-store', false, 0],
      ]);
      await remove(res.body.data.id);
    },
  );

  it('keeps the private key and password sealed: never in an answer, not in the clear in the database, usable by the signer', async () => {
    const res = await upload([p12('openssl-aes'), profile(profiles.development)]);
    const id = res.body.data.id;
    const listed = JSON.stringify(await list());
    for (const text of [JSON.stringify(res.body), listed]) {
      expect(text).not.toMatch(/PRIVATE KEY|private_key|password/i);
      expect(text).not.toContain(PASSWORD);
    }
    const stored = await server.db
      .selectFrom('certificates')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.private_key_sealed).toMatch(/^v1\./);
    expect(stored.private_key_sealed).not.toContain('PRIVATE KEY');
    expect(stored.password_sealed).not.toContain(PASSWORD);
    expect(server.built.core.box.open(stored.password_sealed)).toBe(PASSWORD);

    const identity = await server.built.core.shared.certificates.loadSigningIdentity(id);
    expect(identity.certificateDer.equals(apple.der)).toBe(true);
    const signature = sign('sha256', Buffer.from('code directory'), identity.privateKey);
    expect(verify('sha256', Buffer.from('code directory'), createPublicKey(identity.privateKey), signature)).toBe(true);
    expect(identity.profiles.map((p) => [p.uuid, p.content.equals(profiles.development), p.profile.name])).toEqual([
      ['11111111-2222-3333-4444-555555555555', true, 'Demo Development'],
    ]);
    await remove(id);
  });

  it('refuses a wrong password and files that are not a p12, in Chinese', async () => {
    for (const kind of ['openssl-legacy', 'openssl-aes'] as const) {
      const res = await upload([p12(kind), profile(profiles.development)], 'not-the-password');
      expect(res).toMatchObject({
        status: 400,
        body: { code: ResultCode.badRequest, msg: CertMessages.wrongPassword },
      });
    }
    const otherKey = makeP12WithKeyOf(stranger, apple);
    expect(
      (await upload([{ field: 'p12', name: 'mixed.p12', bytes: otherKey }, profile(profiles.development)])).body.msg,
    ).toBe(CertMessages.keyMismatch);
    const notP12 = await upload([
      { field: 'p12', name: 'dev.p12', bytes: Buffer.from('hello, not a certificate') },
      profile(profiles.development),
    ]);
    expect(notP12.body.msg).toBe(CertMessages.notP12);
    expect(await list()).toEqual([]);
  });

  it('refuses a profile that does not list the certificate, an expired profile, an unreadable or unsigned one', async () => {
    const mismatch = await upload([p12(), profile(profiles.development), profile(profiles.notListing)]);
    expect(mismatch).toMatchObject({
      status: 400,
      body: { msg: CertMessages.profileMismatch('Someone Else Profile') },
    });
    expect(mismatch.body.msg).toBe('描述文件「Someone Else Profile」不包含该证书，请上传与证书匹配的描述文件');
    const expired = await upload([p12(), profile(profiles.expired)]);
    expect(expired.body.msg).toBe('描述文件「Old Profile」已过期（2026-11-01）');
    const garbage = await upload([p12(), profile(Buffer.from('garbage'), 'broken.mobileprovision')]);
    expect(garbage.body.msg).toBe(CertMessages.profileUnreadable('broken.mobileprovision'));
    const bare = await upload([p12(), profile(xmlPlist(profileDict([apple.der])), 'bare.mobileprovision')]);
    expect(bare.body.msg).toBe(CertMessages.profileUnsigned('bare.mobileprovision'));
    const mac = signedProfile([apple], {
      Name: 'Mac Development',
      UUID: '99999999-0000-0000-0000-000000000003',
      Platform: ['OSX'],
    });
    expect((await upload([p12(), profile(mac, 'mac.provisionprofile')])).body.msg).toBe(
      CertMessages.profileNotIos('Mac Development'),
    );
    const tooMany = Array.from({ length: 21 }, (_, i) => profile(profiles.development, `p${i}.mobileprovision`));
    expect((await upload([p12(), ...tooMany])).body.msg).toBe(CertMessages.tooManyProfiles);
    const twice = await upload([
      p12(),
      profile(profiles.development),
      profile(profiles.development, 'copy.mobileprovision'),
    ]);
    expect(twice.body.msg).toBe(CertMessages.profileTwice('Demo Development'));
    expect(await list()).toEqual([]);
  });

  it('refuses an expired certificate and one not yet valid', async () => {
    const old = makeAppleIdentity({
      notBefore: new Date('2024-01-01T00:00:00Z'),
      notAfter: new Date('2026-03-15T00:00:00Z'),
    });
    const oldProfile = signedProfile([old]);
    const expired = await upload([p12('openssl-aes', old), profile(oldProfile)]);
    expect(expired).toMatchObject({
      status: 400,
      body: { msg: '证书已过期（有效期至 2026-03-15），请上传有效的证书' },
    });
    const future = makeAppleIdentity({
      notBefore: new Date('2027-01-01T00:00:00Z'),
      notAfter: new Date('2028-01-01T00:00:00Z'),
    });
    const early = await upload([p12('openssl-aes', future), profile(signedProfile([future]))]);
    expect(early.body.msg).toBe(CertMessages.certificateNotYetValid(Date.UTC(2027, 0, 1)));
  });

  it("refuses a leaf of an unknown issuer that comes without its chain; a leaf issued under Apple's WWDR G3 name gets that intermediate and the Apple root", async () => {
    const leafOnly = (identity: TestIdentity): FormFile => ({
      field: 'p12',
      name: 'leaf.p12',
      bytes: makeP12(identity, PASSWORD, 'openssl-aes', { leafOnly: true }),
    });
    const alone = await upload([leafOnly(apple), profile(profiles.development)]);
    expect(alone).toMatchObject({
      status: 400,
      body: { code: ResultCode.badRequest, msg: CertMessages.chainIncomplete('Test Worldwide Developer Relations CA') },
    });
    expect(await list()).toEqual([]);

    const underG3 = makeAppleIdentity({ issuer: caNamedLike('AppleDevCACertG3.pem'), teamId: 'ABCDE12345', now: NOW });
    const res = await upload([
      leafOnly(underG3),
      profile(signedProfile([underG3], { Name: 'G3 Development', UUID: '12121212-3434-5656-7878-909090909090' })),
    ]);
    expect(res.status).toBe(200);
    const identity = await server.built.core.shared.certificates.loadSigningIdentity(res.body.data.id);
    expect(identity.chain.map((der) => new X509Certificate(der).fingerprint256)).toEqual([
      appleCa('AppleDevCACertG3.pem').fingerprint256,
      appleCa('AppleRootCACert.pem').fingerprint256,
    ]);
    await remove(res.body.data.id);
  });

  it('says what is missing, refuses big files with 413, and the same certificate twice with 409', async () => {
    expect((await upload([profile(profiles.development)])).body.msg).toBe(CertMessages.p12Missing);
    expect((await upload([p12(), profile(profiles.development)], null)).body.msg).toBe(CertMessages.passwordMissing);
    expect((await upload([p12()])).body.msg).toBe(CertMessages.profilesMissing);
    expect((await upload([p12(), p12(), profile(profiles.development)])).body.msg).toBe(CertMessages.p12Twice);
    const big = await upload([p12(), profile(Buffer.alloc(1024 * 1024 + 1, 0x30), 'huge.mobileprovision')]);
    expect(big).toMatchObject({ status: 413, body: { code: ResultCode.tooLarge, msg: CertMessages.fileTooLarge } });
    const json = await server.request('POST', '/api/cert_upload', { token: admin, body: { password: 'x' } });
    expect(json).toMatchObject({ status: 400, body: { msg: CertMessages.notMultipart } });

    const first = await upload([p12(), profile(profiles.development)]);
    expect(first.status).toBe(200);
    const again = await upload([p12('openssl-aes'), profile(profiles.appStore)]);
    expect(again).toMatchObject({
      status: 409,
      body: { code: ResultCode.conflict, msg: CertMessages.certificateExists },
    });
    await remove(first.body.data.id);
  });

  it('deletes a certificate with its profiles; an unknown one is 404', async () => {
    const res = await upload([p12(), profile(profiles.development), profile(profiles.extension)]);
    expect((await remove(res.body.data.id)).body).toEqual({ code: 200, msg: 'success', data: null });
    expect(await list()).toEqual([]);
    const leftovers = await server.db
      .selectFrom('certificate_profiles')
      .select('id')
      .where('certificate_id', '=', res.body.data.id)
      .execute();
    expect(leftovers).toEqual([]);
    expect(await remove(res.body.data.id)).toMatchObject({
      status: 404,
      body: { msg: CertMessages.certificateNotFound },
    });
  });

  it('is for admins only: others get 10028 and nothing is stored or shown', async () => {
    const res = await upload([p12(), profile(profiles.development)], PASSWORD, plain);
    expect(res).toMatchObject({ status: 403, body: { code: ResultCode.noPermission } });
    expect((await server.request('GET', '/api/cert_list', { token: plain })).body.code).toBe(ResultCode.noPermission);
    expect((await server.request('DELETE', '/api/cert?id=1', { token: plain })).body.code).toBe(
      ResultCode.noPermission,
    );
    expect(await list()).toEqual([]);
  });
});
