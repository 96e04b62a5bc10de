import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { bearer, call } from '../test-http.ts';
import { startAppleFake, type AppleApiKey, type AppleFake } from './apple-fake.ts';
import { signAscToken } from './apple-jwt.ts';
import { readProfilePlist } from './apple-profile.ts';

type Errors = { errors: Array<{ status: string; code: string; title: string; detail: string }> };

function developmentCertificate(): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '7a11ce';
  cert.validity.notBefore = new Date('2026-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2027-06-30T00:00:00Z');
  cert.setSubject([{ name: 'commonName', value: 'Apple Development: Test Person (T3AM5FAKE1)' }]);
  cert.setIssuer([{ name: 'commonName', value: 'Test CA' }]);
  cert.sign(
    forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    forge.md.sha256.create(),
  );
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
}

describe('App Store Connect fake', () => {
  let apple: AppleFake;
  let key: AppleApiKey;
  const clock = new FakeClock({ frozen: true, start: Date.parse('2026-11-23T10:00:00Z') });
  const token = (options: Parameters<typeof signAscToken>[1] = {}) =>
    signAscToken(key, { now: clock.now(), ...options });
  const get = <T = Record<string, unknown>>(path: string, auth = token()) =>
    call<T>(`${apple.url}${path}`, { headers: bearer(auth) });
  const post = <T = Record<string, unknown>>(path: string, body: unknown) =>
    call<T>(`${apple.url}${path}`, { body, headers: bearer(token()) });
  const device = (name: string, udid: string, platform = 'IOS') => ({
    data: { type: 'devices', attributes: { name, udid, platform } },
  });

  beforeAll(async () => {
    apple = await startAppleFake({
      clock,
      devices: [
        { name: 'QA iPad', udid: '00008030-001A2B3C4D5E6F70', deviceClass: 'IPAD', model: 'iPad (9th generation)' },
      ],
    });
    key = apple.addKey();
  });
  afterAll(() => apple.close());
  beforeEach(() => apple.reset());

  describe('JWT', () => {
    it('accepts an ES256 token signed with the registered key and lists devices', async () => {
      const answer = await get<{
        data: Array<{ type: string; attributes: { udid: string } }>;
        meta: { paging: { total: number } };
      }>('/v1/devices');
      expect(answer.status).toBe(200);
      expect(answer.body.data[0]?.attributes.udid).toBe('00008030-001A2B3C4D5E6F70');
      expect(answer.headers.get('x-rate-limit')).toBe('user-hour-lim:3500;user-hour-rem:3499;');
    });

    it.each([
      ['no token', () => '', 'missing bearer token'],
      ['a DER signature', () => token({ derSignature: true }), 'signature is not raw r||s'],
      ['a wrong audience', () => token({ payload: { aud: 'appstoreconnect-v2' } }), 'wrong aud'],
      [
        'another issuer',
        () => token({ payload: { iss: '11111111-2222-3333-4444-555555555555' } }),
        'iss does not match the key',
      ],
      ['an unknown key id', () => token({ header: { kid: 'ZZZZZZZZZZ' } }), 'unknown kid'],
      ['a lifetime over 20 minutes', () => token({ lifetimeSeconds: 21 * 60 }), 'exp more than 20 minutes ahead'],
      ['an expired token', () => token({ now: clock.now() - 30 * 60_000 }), 'expired'],
      [
        'another key’s signature',
        () =>
          signAscToken(
            {
              ...key,
              p8: generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
                .privateKey.export({ type: 'pkcs8', format: 'pem' })
                .toString(),
            },
            { now: clock.now() },
          ),
        'bad signature',
      ],
    ])('refuses %s with 401 NOT_AUTHORIZED', async (_label, make, reason) => {
      const answer = await get<Errors>('/v1/devices', make());
      expect(answer.status).toBe(401);
      expect(answer.body.errors[0]).toMatchObject({
        status: '401',
        code: 'NOT_AUTHORIZED',
        title: 'Authentication credentials are missing or invalid.',
      });
      expect(apple.lastAuthFailure?.reason).toBe(reason);
    });

    it('accepts a token of exactly 20 minutes and refuses a revoked key', async () => {
      expect((await get('/v1/devices', token({ lifetimeSeconds: 20 * 60 }))).status).toBe(200);
      const other = apple.addKey();
      apple.revokeKey(other.keyId);
      expect((await get('/v1/devices', signAscToken(other, { now: clock.now() }))).status).toBe(401);
    });
  });

  describe('devices', () => {
    it('registers a device (201), refuses a duplicate in any letter case and a malformed UDID (409)', async () => {
      const created = await post<{ data: { id: string; attributes: { status: string; deviceClass: string } } }>(
        '/v1/devices',
        device('QA iPhone 15', '00008110-000A1B2C3D4E5F60'),
      );
      expect(created.status).toBe(201);
      expect(created.body.data.attributes).toMatchObject({ status: 'ENABLED', deviceClass: 'IPHONE' });
      const duplicate = await post<Errors>('/v1/devices', device('Again', '00008110-000a1b2c3d4e5f60'));
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.errors[0]).toMatchObject({
        code: 'ENTITY_ERROR',
        detail: "A device with number '00008110-000a1b2c3d4e5f60' already exists on this team.",
      });
      const bad = await post<Errors>('/v1/devices', device('Bad', 'not-a-udid'));
      expect(bad.status).toBe(409);
      expect(bad.body.errors[0]).toMatchObject({
        code: 'ENTITY_ERROR.ATTRIBUTE.INVALID',
        detail: "An invalid value 'not-a-udid' was provided for the parameter 'udid'.",
      });
      expect(
        (await post<Errors>('/v1/devices', { data: { type: 'devices', attributes: { name: 'x', platform: 'IOS' } } }))
          .body.errors[0]?.code,
      ).toBe('ENTITY_ERROR.ATTRIBUTE.REQUIRED');
    });

    it('refuses a device past the family limit with 403 FORBIDDEN_ERROR; no DELETE', async () => {
      const iphones = apple.state.devices.filter((d) => d.deviceClass === 'IPHONE').length;
      apple.setDeviceLimit(iphones);
      const answer = await post<Errors>('/v1/devices', device('One more', '00008120-000A1B2C3D4E5F61'));
      expect(answer.status).toBe(403);
      expect(answer.body.errors[0]).toMatchObject({
        code: 'FORBIDDEN_ERROR',
        detail: 'Your development team has reached the maximum number of registered iPhone devices.',
      });
      const id = apple.state.devices[0]?.id ?? '';
      expect((await call(`${apple.url}/v1/devices/${id}`, { method: 'DELETE', headers: bearer(token()) })).status).toBe(
        405,
      );
    });

    it('pages with limit and an opaque cursor in links.next, filters by comma lists, refuses limit over 200', async () => {
      for (let i = 0; i < 4; i++) apple.addDevice({ name: `Page ${i}`, udid: `0000803${i}-00000000000000A${i}` });
      const seen: string[] = [];
      let next: string | undefined = `${apple.url}/v1/devices?limit=2`;
      let total = 0;
      while (next) {
        const page: Awaited<
          ReturnType<
            typeof call<{
              data: Array<{ id: string }>;
              links: { next?: string };
              meta: { paging: { total: number; limit: number } };
            }>
          >
        > = await call(next, { headers: bearer(token()) });
        expect(page.body.meta.paging.limit).toBe(2);
        total = page.body.meta.paging.total;
        seen.push(...page.body.data.map((d) => d.id));
        next = page.body.links.next;
      }
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
      const filtered = await get<{ data: Array<{ attributes: { name: string } }> }>(
        '/v1/devices?filter[name]=Page%200,Page%202',
      );
      expect(filtered.body.data.map((d) => d.attributes.name).sort()).toEqual(['Page 0', 'Page 2']);
      expect((await get<Errors>('/v1/devices?limit=201')).body.errors[0]?.code).toBe('PARAMETER_ERROR.INVALID');
      expect((await get<Errors>('/v1/devices?filter[emaill]=x')).status).toBe(400);
    });
  });

  describe('profiles', () => {
    it('creates an ad hoc profile whose signed content lists the devices and the certificate; name taken → 409; delete 204', async () => {
      const der = developmentCertificate();
      const dev = apple.addCertificate({ der });
      const dist = apple.addCertificate({ der, certificateType: 'DISTRIBUTION' });
      const bundle = apple.addBundleId({ identifier: 'com.example.demo', name: 'Demo' });
      apple.addBundleId({ identifier: 'com.example.demo.widget' });
      const found = await get<{ data: Array<{ attributes: { identifier: string } }> }>(
        '/v1/bundleIds?filter[identifier]=com.example.demo',
      );
      expect(found.body.data.map((b) => b.attributes.identifier)).toEqual([
        'com.example.demo',
        'com.example.demo.widget',
      ]);
      const devices = apple.state.devices.map((d) => ({ type: 'devices', id: d.id }));
      const body = (name: string, profileType: string, certId: string, withDevices = true) => ({
        data: {
          type: 'profiles',
          attributes: { name, profileType },
          relationships: {
            bundleId: { data: { type: 'bundleIds', id: bundle.id } },
            certificates: { data: [{ type: 'certificates', id: certId }] },
            ...(withDevices ? { devices: { data: devices } } : {}),
          },
        },
      });
      const created = await post<{
        data: { id: string; attributes: { profileContent: string; uuid: string; profileState: string } };
      }>('/v1/profiles', body('Demo AdHoc', 'IOS_APP_ADHOC', dist.id));
      expect(created.status).toBe(201);
      const plist = readProfilePlist(created.body.data.attributes.profileContent);
      expect(plist.UUID).toBe(created.body.data.attributes.uuid);
      expect(plist.ProvisionedDevices).toEqual(apple.state.devices.map((d) => d.udid));
      expect((plist.Entitlements as Record<string, unknown>)['application-identifier']).toBe(
        'T3AM5FAKE1.com.example.demo',
      );
      expect((plist.DeveloperCertificates as Buffer[]).map((b) => Buffer.from(b).toString('base64'))).toEqual([
        der.toString('base64'),
      ]);
      const p7 = forge.pkcs7.messageFromAsn1(
        forge.asn1.fromDer(
          forge.util.createBuffer(
            Buffer.from(created.body.data.attributes.profileContent, 'base64').toString('binary'),
          ),
        ),
      );
      expect((p7 as forge.pkcs7.PkcsSignedData).certificates.map((c) => c.subject.getField('O')?.value)).toEqual([
        'Apple Inc.',
      ]);

      const taken = await post<Errors>('/v1/profiles', body('Demo AdHoc', 'IOS_APP_ADHOC', dist.id));
      expect(taken.body.errors[0]?.detail).toBe(
        "Multiple profiles found with the name 'Demo AdHoc'.  Please remove the duplicate profiles and try again.",
      );
      expect(
        (await post<Errors>('/v1/profiles', body('x', 'IOS_APP_ADHOC', dist.id, false))).body.errors[0]?.code,
      ).toBe('ENTITY_ERROR.RELATIONSHIP.REQUIRED');
      expect((await post<Errors>('/v1/profiles', body('y', 'IOS_APP_STORE', dist.id))).body.errors[0]?.detail).toBe(
        'No devices can be associated to Provisioning Profiles for the App Store.',
      );
      expect((await post<Errors>('/v1/profiles', body('z', 'IOS_APP_DEVELOPMENT', dist.id))).status).toBe(409);
      expect((await post('/v1/profiles', body('Demo Dev', 'IOS_APP_DEVELOPMENT', dev.id))).status).toBe(201);

      const listed = await get<{ data: Array<{ id: string }>; included: Array<{ type: string }> }>(
        '/v1/profiles?filter[profileType]=IOS_APP_ADHOC&include=bundleId,certificates',
      );
      expect(listed.body.data.map((p) => p.id)).toEqual([created.body.data.id]);
      expect(listed.body.included.map((r) => r.type).sort()).toEqual(['bundleIds', 'certificates']);
      const removed = await call(`${apple.url}/v1/profiles/${created.body.data.id}`, {
        method: 'DELETE',
        headers: bearer(token()),
      });
      expect(removed.status).toBe(204);
      expect((await get<Errors>(`/v1/profiles/${created.body.data.id}`)).status).toBe(404);
      expect((await post('/v1/profiles', body('Demo AdHoc', 'IOS_APP_ADHOC', dist.id))).status).toBe(201);

      // With a hold, the deleted name stays taken until the hold is over.
      apple.setProfileNameHold(5_000);
      const held = apple.state.profiles.find((p) => p.name === 'Demo AdHoc')?.id ?? '';
      expect(
        (await call(`${apple.url}/v1/profiles/${held}`, { method: 'DELETE', headers: bearer(token()) })).status,
      ).toBe(204);
      expect(
        (await post<Errors>('/v1/profiles', body('Demo AdHoc', 'IOS_APP_ADHOC', dist.id))).body.errors[0]?.detail,
      ).toContain("Multiple profiles found with the name 'Demo AdHoc'.");
      await apple.advance(5_001);
      expect((await post('/v1/profiles', body('Demo AdHoc', 'IOS_APP_ADHOC', dist.id))).status).toBe(201);
    });
  });

  it('an expired agreement blocks every endpoint with 403; the hourly budget ends in 429', async () => {
    apple.setAgreementExpired(true);
    const blocked = await get<Errors>('/v1/certificates');
    expect(blocked.status).toBe(403);
    expect(blocked.body.errors[0]).toMatchObject({
      code: 'FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED',
      title: 'A required agreement is missing or has expired.',
    });
    apple.reset(); // agreement signed again, a fresh hour
    apple.setHourlyLimit(2);
    expect((await get('/v1/certificates')).status).toBe(200);
    expect((await get('/v1/bundleIds')).status).toBe(200);
    const limited = await get<Errors>('/v1/devices');
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0]?.code).toBe('RATE_LIMIT_EXCEEDED');
    await apple.advance(3_600_001);
    expect((await get('/v1/devices')).status).toBe(200);
  });

  it('control hooks over HTTP: seed a device, switch the agreement, read the state and requests', async () => {
    await call(`${apple.url}/__fake/devices`, { body: { name: 'Seeded', udid: '00008140-0000000000000001' } });
    await call(`${apple.url}/__fake/agreement`, { body: { expired: true } });
    expect((await get('/v1/devices')).status).toBe(403);
    const state = await call<{ agreementExpired: boolean; devices: Array<{ name: string }> }>(
      `${apple.url}/__fake/state`,
    );
    expect(state.body.agreementExpired).toBe(true);
    expect(state.body.devices.map((d) => d.name)).toContain('Seeded');
    const requests = await call<Array<{ path: string; status: number }>>(`${apple.url}/__fake/requests`);
    expect(requests.body).toEqual([expect.objectContaining({ path: '/v1/devices', status: 403 })]);
  });
});
