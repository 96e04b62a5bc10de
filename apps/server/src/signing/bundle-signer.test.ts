import { createPrivateKey } from 'node:crypto';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { makeAppleIdentity, makeSignedProfile } from '@release/inspect/testing/identities.ts';
import { infoPlist, xmlPlist } from '@release/inspect/testing/packages.ts';
import { makeIdentity, signingTimeWithin } from '@release/inspect/testing/signing.ts';
import { BundleSigningError, resignApp, type BundleSigningInput } from './bundle-signer.ts';
import { readEmbeddedSignature } from './code-signature.ts';
import { parseMachO } from './macho.ts';
import { buildThinMachO } from './testing/macho-builder.ts';
import { verifyApp } from './verify-app.ts';

const oldSigner = makeIdentity('Apple Distribution: Old Team (OLDTEAM001)');
const signer = makeAppleIdentity({ commonName: 'Apple Development: 韩梅梅 (NEWTEAM001)', teamId: 'NEWTEAM001' });
const apple = makeAppleIdentity({ commonName: 'Apple iPhone OS Provisioning Profile Signing', serial: '0a0a' });
const oldEntitlements = xmlPlist({
  'application-identifier': 'OLDTEAM001.com.example.demo',
  'keychain-access-groups': ['OLDTEAM001.com.example.demo'],
  'aps-environment': 'production',
});

const profile = (name: string, uuid: string, appId: string, extra: Record<string, unknown> = {}) =>
  makeSignedProfile([signer], apple, {
    Name: name,
    UUID: uuid,
    TeamIdentifier: ['NEWTEAM001'],
    Entitlements: {
      'application-identifier': appId,
      'com.apple.developer.team-identifier': 'NEWTEAM001',
      'get-task-allow': true,
      'keychain-access-groups': ['NEWTEAM001.*'],
      ...extra,
    },
  } as never);
const mainProfile = profile('Demo Dev', '11111111-1111-1111-1111-111111111111', 'NEWTEAM001.com.example.demo', {
  'aps-environment': 'development',
});
const wildcardProfile = profile('Team Wildcard', '22222222-2222-2222-2222-222222222222', 'NEWTEAM001.*');

function sampleApp(): Map<string, Buffer> {
  const binary = (identifier: string, dylibId?: string) =>
    buildThinMachO({
      dylibId,
      signature: {
        identifier,
        teamId: 'OLDTEAM001',
        signer: oldSigner,
        entitlementsXml: dylibId ? undefined : oldEntitlements,
      },
    });
  return new Map<string, Buffer>([
    [
      'Payload/Demo.app/Info.plist',
      xmlPlist(infoPlist({ CFBundleIdentifier: 'com.example.demo', CFBundleExecutable: 'Demo' })),
    ],
    ['Payload/Demo.app/Demo', binary('com.example.demo')],
    ['Payload/Demo.app/Assets.car', Buffer.from('assets')],
    ['Payload/Demo.app/zh-Hans.lproj/Localizable.strings', Buffer.from('"ok" = "好";')],
    ['Payload/Demo.app/embedded.mobileprovision', Buffer.from('the old profile')],
    [
      'Payload/Demo.app/PlugIns/Widget.appex/Info.plist',
      xmlPlist(infoPlist({ CFBundleIdentifier: 'com.example.demo.widget', CFBundleExecutable: 'Widget' })),
    ],
    ['Payload/Demo.app/PlugIns/Widget.appex/Widget', binary('com.example.demo.widget')],
    [
      'Payload/Demo.app/Frameworks/Kit.framework/Info.plist',
      xmlPlist(infoPlist({ CFBundleIdentifier: 'com.example.Kit', CFBundleExecutable: 'Kit' })),
    ],
    ['Payload/Demo.app/Frameworks/Kit.framework/Kit', binary('com.example.Kit', '@rpath/Kit.framework/Kit')],
    ['Payload/Demo.app/Frameworks/libswiftCore.dylib', binary('libswiftCore', '@rpath/libswiftCore.dylib')],
  ]);
}

const input: BundleSigningInput = {
  certificate: signer.der,
  chain: [],
  privateKey: createPrivateKey(forge.pki.privateKeyToPem(signer.key)),
  profiles: [
    { uuid: '11111111-1111-1111-1111-111111111111', appId: 'NEWTEAM001.com.example.demo', content: mainProfile },
    { uuid: '22222222-2222-2222-2222-222222222222', appId: 'NEWTEAM001.*', content: wildcardProfile },
  ],
  signingTime: signingTimeWithin(signer.certificate),
};

const entitlementsOf = (binary: Buffer) => readEmbeddedSignature(binary, parseMachO(binary).slices[0]!)?.entitlements;

describe('resignApp', () => {
  it('signs nested bundles first, each app or extension with its profile; the verifier passes the result', async () => {
    const app = sampleApp();
    expect(verifyApp(app)).toContain('Payload/Demo.app/: no CodeResources');
    const signed = await resignApp(app, input);
    expect(signed).toMatchObject([
      { path: 'Payload/Demo.app/Frameworks/Kit.framework/', bundleId: 'com.example.Kit', profileUuid: null },
      {
        path: 'Payload/Demo.app/PlugIns/Widget.appex/',
        bundleId: 'com.example.demo.widget',
        profileUuid: '22222222-2222-2222-2222-222222222222',
      },
      { path: 'Payload/Demo.app/', bundleId: 'com.example.demo', profileUuid: '11111111-1111-1111-1111-111111111111' },
    ]);
    expect(verifyApp(app)).toEqual([]);
    expect(app.get('Payload/Demo.app/embedded.mobileprovision')?.equals(mainProfile)).toBe(true);
    expect(app.get('Payload/Demo.app/PlugIns/Widget.appex/embedded.mobileprovision')?.equals(wildcardProfile)).toBe(
      true,
    );
    expect(app.has('Payload/Demo.app/Frameworks/Kit.framework/embedded.mobileprovision')).toBe(false);
    expect(entitlementsOf(app.get('Payload/Demo.app/Demo')!)).toEqual({
      'application-identifier': 'NEWTEAM001.com.example.demo',
      'com.apple.developer.team-identifier': 'NEWTEAM001',
      'get-task-allow': true,
      'keychain-access-groups': ['NEWTEAM001.com.example.demo'],
      'aps-environment': 'development',
    });
    expect(entitlementsOf(app.get('Payload/Demo.app/PlugIns/Widget.appex/Widget')!)?.['application-identifier']).toBe(
      'NEWTEAM001.com.example.demo.widget',
    );
  });

  it('the verifier catches a changed resource, a changed binary and a profile that does not allow the entitlements', async () => {
    const app = sampleApp();
    await resignApp(app, input);
    const changed = new Map(app);
    changed.set('Payload/Demo.app/Assets.car', Buffer.from('other assets'));
    expect(verifyApp(changed)).toEqual(['Payload/Demo.app/: Assets.car changed after signing']);
    const patched = new Map(app);
    const binary = Buffer.from(app.get('Payload/Demo.app/PlugIns/Widget.appex/Widget')!);
    binary.writeUInt8(binary.readUInt8(5000) ^ 1, 5000);
    patched.set('Payload/Demo.app/PlugIns/Widget.appex/Widget', binary);
    expect(verifyApp(patched)).toEqual(
      expect.arrayContaining(['Payload/Demo.app/PlugIns/Widget.appex/: arm64: page 1 (CodeDirectory 0)']),
    );
    const swapped = new Map(app);
    swapped.set('Payload/Demo.app/embedded.mobileprovision', wildcardProfile);
    expect(verifyApp(swapped)).toEqual(
      expect.arrayContaining(['Payload/Demo.app/: entitlements outside the profile: aps-environment']),
    );
  });

  it('refuses when no profile covers a bundle, naming its bundle id', async () => {
    const only = { ...input, profiles: [input.profiles[0]!] };
    const error = await resignApp(sampleApp(), only).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BundleSigningError);
    expect(error).toMatchObject({ reason: 'noProfile', bundleId: 'com.example.demo.widget' });
    await expect(resignApp(new Map([['Payload/readme.txt', Buffer.from('x')]]), input)).rejects.toThrow(
      BundleSigningError,
    );
  });
});
