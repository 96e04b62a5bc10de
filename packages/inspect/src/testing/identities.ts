import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import type { PlistValue } from 'plist';
import { makeProfile, profileDict, type Dict } from './packages.ts';
import type { TestIdentity } from './signing.ts';
import { currentValidity } from './validity.ts';

/** Apple-style signing identities for tests: `Apple Development: Name (TEAMID)`, OU = team, O = team name. */
export interface AppleIdentityOptions {
  commonName?: string;
  teamId?: string;
  teamName?: string;
  /** Explicit validity; by default the certificate is current at `now` (see validity.ts). */
  notBefore?: Date;
  notAfter?: Date;
  /** The moment the default validity is current at (default: the wall clock), e.g. a test server's fixed clock. */
  now?: number;
  serial?: string;
  /** The CA that signs it (default: one test CA per process, "Test Worldwide Developer Relations CA"). */
  issuer?: TestIdentity;
}

/** A CA for test leaves: self-signed, valid 2001–2049, may sign certificates. `subject` defaults to a test WWDR. */
export function makeTestCa(
  subject: forge.pki.CertificateField[] = [{ name: 'commonName', value: 'Test Worldwide Developer Relations CA' }],
): TestIdentity {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  certificate.serialNumber = '0ca0';
  certificate.validity.notBefore = new Date('2001-01-01T00:00:00Z');
  certificate.validity.notAfter = new Date('2049-12-31T00:00:00Z');
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([
    { name: 'basicConstraints', critical: true, cA: true },
    { name: 'keyUsage', critical: true, keyCertSign: true, cRLSign: true },
  ]);
  certificate.sign(key, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
  return { certificate, key, der, sha256: createHash('sha256').update(der).digest('hex') };
}

let defaultCa: TestIdentity | null = null;

export function makeAppleIdentity(
  options: AppleIdentityOptions = {},
): TestIdentity & { sha1: string; issuerCa: TestIdentity } {
  defaultCa ??= makeTestCa();
  const issuerCa = options.issuer ?? defaultCa;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  certificate.serialNumber = options.serial ?? '5a3c01';
  const validity = currentValidity(options.now);
  certificate.validity.notBefore = options.notBefore ?? validity.from;
  certificate.validity.notAfter = options.notAfter ?? validity.to;
  const teamId = options.teamId ?? 'TEAM123456';
  // UTF8String values: forge encodes them itself (team and developer names may be Chinese).
  const utf8 = (value: string) => ({ value, valueTagClass: forge.asn1.Type.UTF8 });
  certificate.setSubject([
    { type: '0.9.2342.19200300.100.1.1', ...utf8(teamId.toLowerCase()) },
    { name: 'commonName', ...utf8(options.commonName ?? `Apple Development: Test Person (${teamId})`) },
    { name: 'organizationalUnitName', ...utf8(teamId) },
    { name: 'organizationName', ...utf8(options.teamName ?? 'Example Co., Ltd.') },
    { name: 'countryName', value: 'CN' },
  ] as forge.pki.CertificateField[]);
  certificate.setIssuer(issuerCa.certificate.subject.attributes);
  certificate.setExtensions([
    { name: 'keyUsage', critical: true, digitalSignature: true },
    { name: 'extKeyUsage', codeSigning: true },
  ]);
  certificate.sign(issuerCa.key, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
  return {
    certificate,
    key,
    der,
    sha256: createHash('sha256').update(der).digest('hex'),
    sha1: createHash('sha1').update(der).digest('hex').toUpperCase(),
    issuerCa,
  };
}

export type P12Kind = 'openssl-legacy' | 'openssl-aes' | 'forge-3des';

/**
 * A .p12 as real tools write it: OpenSSL 3 with `-legacy` (RC2-40 certificates, 3DES key, SHA-1 MAC — what
 * Keychain exports look like), OpenSSL 3's default (PBES2 AES-256, SHA-256 MAC), or node-forge's 3DES.
 */
export function makeP12(
  identity: TestIdentity & { issuerCa?: TestIdentity },
  password: string,
  kind: P12Kind = 'openssl-aes',
  options: { iterations?: number; leafOnly?: boolean } = {},
): Buffer {
  // With its issuing CA unless asked for the leaf alone (as Keychain exports an identity whose CA it does not hold).
  const chain = identity.issuerCa && !options.leafOnly ? [identity.issuerCa.certificate] : [];
  if (kind === 'forge-3des') {
    const asn1 = forge.pkcs12.toPkcs12Asn1(identity.key, [identity.certificate, ...chain], password, {
      algorithm: '3des',
      friendlyName: 'signing',
    });
    return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'p12-'));
  try {
    fs.writeFileSync(path.join(dir, 'key.pem'), forge.pki.privateKeyToPem(identity.key));
    fs.writeFileSync(path.join(dir, 'cert.pem'), forge.pki.certificateToPem(identity.certificate));
    if (chain[0]) fs.writeFileSync(path.join(dir, 'chain.pem'), forge.pki.certificateToPem(chain[0]));
    const args = [
      'pkcs12',
      '-export',
      '-inkey',
      'key.pem',
      '-in',
      'cert.pem',
      '-passout',
      `pass:${password}`,
      '-out',
      'out.p12',
    ];
    if (chain[0]) args.push('-certfile', 'chain.pem');
    if (kind === 'openssl-legacy') args.push('-legacy');
    // The key, the certificates and the MAC all derived with this many iterations.
    if (options.iterations) args.push('-iter', String(options.iterations), '-maciter');
    const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`openssl pkcs12 failed: ${run.stderr}`);
    return fs.readFileSync(path.join(dir, 'out.p12'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A signed profile listing `listed`, signed by `signer` (Apple signs real ones; any CMS signer reads the same),
 * current at `now` unless the overrides date it. An override of `undefined` removes that key (an App Store
 * profile has no ProvisionedDevices).
 */
export function makeSignedProfile(
  listed: Array<Pick<TestIdentity, 'der'>>,
  signer: TestIdentity,
  overrides: Record<string, PlistValue | undefined> = {},
  now?: number,
): Buffer {
  const validity = currentValidity(now);
  const dict: Dict = profileDict(
    listed.map((identity) => identity.der),
    { CreationDate: validity.from, ExpirationDate: validity.to },
  );
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete dict[key];
    else dict[key] = value;
  }
  return makeProfile(dict, signer);
}
