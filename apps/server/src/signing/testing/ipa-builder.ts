import { createPrivateKey } from 'node:crypto';
import forge from 'node-forge';
import { makeAppleIdentity, makeSignedProfile } from '@release/inspect/testing/identities.ts';
import { infoPlist, xmlPlist } from '@release/inspect/testing/packages.ts';
import { makeIdentity, signingTimeWithin, type TestIdentity } from '@release/inspect/testing/signing.ts';
import { buildZip, type ZipEntrySpec } from '@release/inspect/testing/zip-writer.ts';
import type { BundleSigningInput } from '../bundle-signer.ts';
import { buildThinMachO } from './macho-builder.ts';

/**
 * A small but real ipa for re-signing tests: an app signed by an old team (Mach-O with a CMS signature), an
 * extension, a framework, a Swift dylib, resources; and a new signing set (certificate, profiles) for it.
 */
export interface SampleIpaOptions {
  bundleId?: string;
  /** App Store encryption on the main executable (cryptid 1). */
  encrypted?: boolean;
  /** Without the widget extension. */
  noExtension?: boolean;
  /** Primary code directory hash type of every binary (CS_HASHTYPE; SHA-1 adds a SHA-256 alternate). */
  hashType?: number;
  /** Code bytes of the main executable (a large one is deflated as it is written). */
  mainCodeSize?: number;
  /** Code bytes of the framework's executable (a large one is streamed, as UnityFramework would be). */
  frameworkCodeSize?: number;
}

const oldSigner = makeIdentity('Apple Distribution: Old Team (OLDTEAM001)');

export function sampleSignedIpaEntries(options: SampleIpaOptions = {}): ZipEntrySpec[] {
  const bundleId = options.bundleId ?? 'com.example.demo';
  const oldEntitlements = xmlPlist({
    'application-identifier': `OLDTEAM001.${bundleId}`,
    'keychain-access-groups': [`OLDTEAM001.${bundleId}`],
    'get-task-allow': false,
  });
  const binary = (identifier: string, extra: { dylibId?: string; cryptId?: number; codeSize?: number } = {}) =>
    buildThinMachO({
      ...extra,
      signature: {
        identifier,
        teamId: 'OLDTEAM001',
        signer: oldSigner,
        hashType: options.hashType,
        entitlementsXml: extra.dylibId ? undefined : oldEntitlements,
      },
    });
  const root = 'Payload/Demo.app/';
  const entries: ZipEntrySpec[] = [
    { name: 'Payload/' },
    { name: root },
    {
      name: `${root}Info.plist`,
      data: xmlPlist(infoPlist({ CFBundleIdentifier: bundleId, CFBundleExecutable: 'Demo' })),
      method: 'deflate',
    },
    {
      name: `${root}Demo`,
      data: binary(bundleId, { cryptId: options.encrypted ? 1 : undefined, codeSize: options.mainCodeSize }),
      method: 'deflate',
    },
    { name: `${root}Assets.car`, data: Buffer.alloc(300_000, 7), method: 'deflate' },
    { name: `${root}zh-Hans.lproj/Localizable.strings`, data: '"ok" = "好";', method: 'store' },
    { name: `${root}embedded.mobileprovision`, data: 'the old profile' },
    {
      name: `${root}Frameworks/Kit.framework/Info.plist`,
      data: xmlPlist(infoPlist({ CFBundleIdentifier: 'com.example.Kit', CFBundleExecutable: 'Kit' })),
    },
    {
      name: `${root}Frameworks/Kit.framework/Kit`,
      data: binary('com.example.Kit', { dylibId: '@rpath/Kit.framework/Kit', codeSize: options.frameworkCodeSize }),
      method: 'deflate',
    },
    {
      name: `${root}Frameworks/libswiftCore.dylib`,
      data: binary('libswiftCore', { dylibId: '@rpath/libswiftCore.dylib' }),
      method: 'deflate',
    },
  ];
  if (!options.noExtension) {
    entries.push(
      {
        name: `${root}PlugIns/Widget.appex/Info.plist`,
        data: xmlPlist(infoPlist({ CFBundleIdentifier: `${bundleId}.widget`, CFBundleExecutable: 'Widget' })),
      },
      { name: `${root}PlugIns/Widget.appex/Widget`, data: binary(`${bundleId}.widget`), method: 'deflate' },
    );
  }
  return entries;
}

export function sampleSignedIpa(options: SampleIpaOptions = {}): Buffer {
  return buildZip(sampleSignedIpaEntries(options));
}

/** A new team's certificate and the profiles that make a complete signing set for the sample app. */
export interface SampleSigningSet {
  identity: TestIdentity & { sha1: string };
  appleSigner: TestIdentity;
  /** For the app only (`TEAM.com.example.demo`). */
  mainProfile: Buffer;
  /** A wildcard for the rest (`TEAM.*`). */
  wildcardProfile: Buffer;
  input(profiles?: Array<'main' | 'wildcard'>): BundleSigningInput;
}

/** The certificate and profiles are current at `now` (default: the wall clock; a test server's fixed clock for a server test). */
export function sampleSigningSet(
  teamId = 'NEWTEAM001',
  options: { bundleId?: string; now?: number } = {},
): SampleSigningSet {
  const { bundleId = 'com.example.demo', now } = options;
  const identity = makeAppleIdentity({ commonName: `Apple Development: 韩梅梅 (${teamId})`, teamId, now });
  const appleSigner = makeAppleIdentity({
    commonName: 'Apple iPhone OS Provisioning Profile Signing',
    serial: '0a0a',
    now,
  });
  const profile = (name: string, uuid: string, appId: string) =>
    makeSignedProfile(
      [identity],
      appleSigner,
      {
        Name: name,
        UUID: uuid,
        TeamIdentifier: [teamId],
        Entitlements: {
          'application-identifier': appId,
          'com.apple.developer.team-identifier': teamId,
          'get-task-allow': true,
          'keychain-access-groups': [`${teamId}.*`],
        },
      } as never,
      now,
    );
  const mainProfile = profile('Demo Dev', '11111111-1111-1111-1111-111111111111', `${teamId}.${bundleId}`);
  const wildcardProfile = profile('Team Wildcard', '22222222-2222-2222-2222-222222222222', `${teamId}.*`);
  return {
    identity,
    appleSigner,
    mainProfile,
    wildcardProfile,
    input: (which = ['main', 'wildcard']) => ({
      certificate: identity.der,
      chain: [],
      privateKey: createPrivateKey(forge.pki.privateKeyToPem(identity.key)),
      profiles: [
        ...(which.includes('main')
          ? [{ uuid: '11111111-1111-1111-1111-111111111111', appId: `${teamId}.${bundleId}`, content: mainProfile }]
          : []),
        ...(which.includes('wildcard')
          ? [{ uuid: '22222222-2222-2222-2222-222222222222', appId: `${teamId}.*`, content: wildcardProfile }]
          : []),
      ],
      signingTime: signingTimeWithin(identity.certificate, now),
    }),
  };
}
