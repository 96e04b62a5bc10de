import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inspectMobileprovision } from './mobileprovision.ts';
import { PackageInspectionError } from './inspection-error.ts';
import { binaryPlist, makeProfile, profileDict, xmlPlist } from './testing/packages.ts';
import { makeIdentity, signCms, toBerChunked } from './testing/signing.ts';

const apple = makeIdentity('Apple iPhone OS Provisioning Profile Signing', '0a');
const distribution = makeIdentity('Apple Distribution: Example Co., Ltd. (TEAM123456)', '0b');
const development = makeIdentity('Apple Development: Jane Doe (ABCDE12345)', '0c');

describe('inspectMobileprovision', () => {
  it('reads a DER CMS profile: names, team, dates, devices and developer certificates', () => {
    const dict = profileDict([distribution.der]);
    const profile = inspectMobileprovision(makeProfile(dict, apple));
    expect(profile).toMatchObject({
      name: 'Demo Ad Hoc',
      uuid: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
      type: 'ad-hoc',
      teamId: 'TEAM123456',
      teamName: 'Example Co., Ltd.',
      applicationIdentifier: 'TEAM123456.com.example.demo',
      provisionedDevices: ['00008030-001A2B3C4D5E6F70', '00008101-000A1B2C3D4E5F60'],
      isSigned: true,
    });
    expect([profile.createdAt, profile.expiresAt]).toEqual([dict.CreationDate, dict.ExpirationDate]);
    const [certificate] = profile.developerCertificates;
    expect(certificate?.commonName).toBe('Apple Distribution: Example Co., Ltd. (TEAM123456)');
    expect(certificate?.sha1).toBe(createHash('sha1').update(distribution.der).digest('hex').toUpperCase());
    expect(certificate?.serialNumber).toBe('0B');
    expect([certificate?.validFrom, certificate?.validTo]).toEqual([
      distribution.certificate.validity.notBefore,
      distribution.certificate.validity.notAfter,
    ]);
  });

  it('reads a BER profile with indefinite lengths and the plist split into chunks', () => {
    const der = makeProfile(profileDict([development.der], { Name: '分块的描述文件' }), apple);
    const ber = toBerChunked(der);
    expect(ber.subarray(0, 2)).toEqual(Buffer.from([0x30, 0x80]));
    expect(ber.includes(Buffer.from('</plist>'))).toBe(true);
    expect(inspectMobileprovision(ber).name).toBe('分块的描述文件');
  });

  it('reads unsigned binary and XML plist profiles', () => {
    const dict = profileDict([], { ProvisionedDevices: [], ProvisionsAllDevices: true });
    expect(inspectMobileprovision(binaryPlist(dict))).toMatchObject({ type: 'enterprise', isSigned: false });
    expect(inspectMobileprovision(xmlPlist(dict))).toMatchObject({ type: 'enterprise', isSigned: false });
  });

  it.each([
    ['development', { Entitlements: { 'get-task-allow': true } }],
    ['ad-hoc', { Entitlements: { 'get-task-allow': false } }],
    ['enterprise', { ProvisionedDevices: [], ProvisionsAllDevices: true }],
    ['app-store', { ProvisionedDevices: [], Entitlements: { 'beta-reports-active': true } }],
    ['developer-id', { ProvisionedDevices: [], ProvisionsAllDevices: true, Platform: ['OSX'] }],
  ])('classifies a %s profile', (type, overrides) => {
    expect(inspectMobileprovision(makeProfile(profileDict([distribution.der], overrides), apple)).type).toBe(type);
  });

  it('tells macOS development from distribution by the certificate when get-task-allow is absent', () => {
    const mac = {
      Platform: ['OSX'],
      Entitlements: { 'com.apple.application-identifier': 'TEAM123456.com.example.mac' },
    };
    expect(inspectMobileprovision(makeProfile(profileDict([development.der], mac), apple))).toMatchObject({
      type: 'development',
      applicationIdentifier: 'TEAM123456.com.example.mac',
    });
    expect(inspectMobileprovision(makeProfile(profileDict([distribution.der], mac), apple)).type).toBe('ad-hoc');
  });

  it('rejects bytes that are no profile', () => {
    expect(() => inspectMobileprovision(Buffer.from('garbage'))).toThrow(PackageInspectionError);
    expect(() => inspectMobileprovision(signCms(Buffer.from('not a plist'), apple))).toThrow(PackageInspectionError);
  });
});
