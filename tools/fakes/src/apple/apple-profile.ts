import { generateKeyPairSync, randomUUID } from 'node:crypto';
import forge from 'node-forge';
import { build as buildPlist, parse as parsePlist, type PlistValue } from 'plist';
import type { AscProfile } from './apple-state.ts';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** The key Apple signs profiles with, made once per fake (any CMS signer reads the same to a verifier). */
export interface ProfileSigner {
  key: forge.pki.rsa.PrivateKey;
  certificate: forge.pki.Certificate;
}

/** Apple's signing certificate is long-lived: issued a year before the fake's `now`, good for ten years after it. */
export function makeProfileSigner(now: number): ProfileSigner {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  certificate.serialNumber = '0a51ce';
  certificate.validity.notBefore = new Date(now - YEAR_MS);
  certificate.validity.notAfter = new Date(now + 10 * YEAR_MS);
  const name = [
    { name: 'commonName', value: 'Apple iPhone OS Provisioning Profile Signing (fake)' },
    { name: 'organizationName', value: 'Apple Inc.' },
  ];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.sign(key, forge.md.sha256.create());
  return { key, certificate };
}

export interface ProfileContentInput {
  name: string;
  uuid: string;
  profileType: string;
  teamId: string;
  teamName: string;
  appIdName: string;
  bundleIdentifier: string;
  createdAt: Date;
  expiresAt: Date;
  certificateDers: Buffer[];
  udids: string[];
}

const isDevelopment = (profileType: string) => profileType.endsWith('_DEVELOPMENT');
const hasDevices = (profileType: string) => isDevelopment(profileType) || profileType.endsWith('_ADHOC');

/** A `.mobileprovision`: CMS SignedData (attached) over the XML plist Apple puts in `profileContent`. */
export function buildProfileContent(input: ProfileContentInput, signer: ProfileSigner): Buffer {
  const appId = `${input.teamId}.${input.bundleIdentifier}`;
  const dict: Record<string, PlistValue> = {
    AppIDName: input.appIdName,
    ApplicationIdentifierPrefix: [input.teamId],
    CreationDate: input.createdAt,
    Platform: ['iOS'],
    IsXcodeManaged: false,
    DeveloperCertificates: input.certificateDers.map((der) => der),
    Entitlements: {
      'application-identifier': appId,
      'keychain-access-groups': [`${input.teamId}.*`],
      'get-task-allow': isDevelopment(input.profileType),
      'com.apple.developer.team-identifier': input.teamId,
    },
    ExpirationDate: input.expiresAt,
    Name: input.name,
    TeamIdentifier: [input.teamId],
    TeamName: input.teamName,
    TimeToLive: Math.round((input.expiresAt.getTime() - input.createdAt.getTime()) / 86_400_000),
    UUID: input.uuid,
    Version: 1,
  };
  if (hasDevices(input.profileType)) dict.ProvisionedDevices = input.udids;
  if (input.profileType.endsWith('_INHOUSE')) dict.ProvisionsAllDevices = true;
  const xml = buildPlist(dict);
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(Buffer.from(xml, 'utf8').toString('binary'));
  p7.addCertificate(signer.certificate);
  p7.addSigner({
    key: signer.key,
    certificate: signer.certificate,
    digestAlgorithm: forge.pki.oids.sha256 as string,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType as string, value: forge.pki.oids.data as string },
      { type: forge.pki.oids.messageDigest as string },
      { type: forge.pki.oids.signingTime as string, value: input.createdAt.toISOString() },
    ],
  });
  p7.sign({ detached: false });
  return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
}

/** Reads the plist back out of profileContent (tests; clients slice `<?xml` … `</plist>` the same way). */
export function readProfilePlist(profileContent: string): Record<string, unknown> {
  const text = Buffer.from(profileContent, 'base64').toString('latin1');
  const start = text.indexOf('<?xml');
  const end = text.indexOf('</plist>');
  if (start < 0 || end < 0) throw new Error('no plist in the profile');
  return parsePlist(Buffer.from(text.slice(start, end + 8), 'latin1').toString('utf8')) as Record<string, unknown>;
}

export function newProfileUuid(): string {
  return randomUUID().toUpperCase();
}

export type { AscProfile };
