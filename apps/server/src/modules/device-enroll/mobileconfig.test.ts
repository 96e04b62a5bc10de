import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { cmsCertificates, cmsSignedContent } from '@release/inspect/der.ts';
import { parsePlistDict } from '@release/inspect/plist.ts';
import { makeIdentity } from '@release/inspect/testing/signing.ts';
import { readDeviceAnswer } from './device-answer.ts';
import { buildProfileServiceConfig, loadProfileSigner, signMobileconfig } from './mobileconfig.ts';
import { challengeOf, fakeDeviceAnswer } from './testing/device-answer.ts';

const input = {
  callbackUrl: 'https://dist.example.com/api/device_enroll/callback',
  challenge: 'c'.repeat(32),
  host: 'dist.example.com',
};

describe('the Profile Service .mobileconfig', () => {
  it('is a plist of PayloadType Profile Service asking for the device attributes at our callback', () => {
    const xml = buildProfileServiceConfig(input);
    const dict = parsePlistDict(Buffer.from(xml));
    expect(dict).toMatchObject({
      PayloadType: 'Profile Service',
      PayloadVersion: 1,
      PayloadIdentifier: 'com.example.dist.release.profile-service',
      PayloadDisplayName: '注册此设备',
      PayloadContent: {
        URL: input.callbackUrl,
        DeviceAttributes: ['UDID', 'IMEI', 'ICCID', 'VERSION', 'PRODUCT', 'SERIAL'],
        Challenge: input.challenge,
      },
    });
    expect(dict?.PayloadUUID).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(dict?.PayloadDescription).toContain('dist.example.com');
    expect(challengeOf(xml)).toBe(input.challenge);
  });

  it('is signed as CMS with the configured identity, and openssl verifies the signature over the same plist', () => {
    const identity = makeIdentity('dist.example.com');
    const signer = loadProfileSigner(
      forge.pki.certificateToPem(identity.certificate),
      forge.pki.privateKeyToPem(identity.key),
    );
    const xml = buildProfileServiceConfig(input);
    const signed = signMobileconfig(xml, signer);
    expect(cmsSignedContent(signed)?.toString('utf8')).toBe(xml);
    expect(cmsCertificates(signed).signers).toEqual([identity.der]);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mobileconfig-'));
    writeFileSync(path.join(dir, 'p.der'), signed);
    const out = execFileSync(
      'openssl',
      ['cms', '-verify', '-noverify', '-inform', 'DER', '-in', path.join(dir, 'p.der')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out.toString('utf8')).toBe(xml);
  });

  it('refuses a key that does not belong to the certificate', () => {
    const one = makeIdentity('one');
    const other = makeIdentity('other');
    expect(() =>
      loadProfileSigner(forge.pki.certificateToPem(one.certificate), forge.pki.privateKeyToPem(other.key)),
    ).toThrow(/does not belong/);
    expect(() => loadProfileSigner('', forge.pki.privateKeyToPem(one.key))).toThrow(/no certificate/);
  });
});

describe('reading the device answer', () => {
  it('reads UDID, model, OS, serial and the challenge from the signed plist', () => {
    expect(readDeviceAnswer(fakeDeviceAnswer({ udid: '00008030-001a2b3c4d5e6f70', challenge: 'abc' }))).toEqual({
      udid: '00008030-001a2b3c4d5e6f70',
      challenge: 'abc',
      product: 'iPhone14,2',
      version: '21A329',
      serial: 'F2LXK0AAAAAA',
    });
  });

  it('gives null for garbage, a bare plist and a signed plist without UDID', () => {
    expect(readDeviceAnswer(Buffer.from('not a cms message'))).toBeNull();
    expect(
      readDeviceAnswer(
        Buffer.from('<?xml version="1.0"?><plist><dict><key>UDID</key><string>x</string></dict></plist>'),
      ),
    ).toBeNull();
    expect(readDeviceAnswer(fakeDeviceAnswer({ udid: '' }))).toBeNull();
    expect(readDeviceAnswer(Buffer.alloc(0))).toBeNull();
  });
});
