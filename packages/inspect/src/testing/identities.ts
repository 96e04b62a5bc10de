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
}

export function makeAppleIdentity(options: AppleIdentityOptions = {}): TestIdentity & { sha1: string } {
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
  certificate.setIssuer([{ name: 'commonName', value: 'Test Worldwide Developer Relations CA' }]);
  certificate.setExtensions([
    { name: 'keyUsage', critical: true, digitalSignature: true },
    { name: 'extKeyUsage', codeSigning: true },
  ]);
  certificate.sign(key, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
  return {
    certificate,
    key,
    der,
    sha256: createHash('sha256').update(der).digest('hex'),
    sha1: createHash('sha1').update(der).digest('hex').toUpperCase(),
  };
}

export type P12Kind = 'openssl-legacy' | 'openssl-aes' | 'forge-3des';

/**
 * A .p12 as real tools write it: OpenSSL 3 with `-legacy` (RC2-40 certificates, 3DES key, SHA-1 MAC — what
 * Keychain exports look like), OpenSSL 3's default (PBES2 AES-256, SHA-256 MAC), or node-forge's 3DES.
 */
export function makeP12(
  identity: TestIdentity,
  password: string,
  kind: P12Kind = 'openssl-aes',
  options: { iterations?: number } = {},
): Buffer {
  if (kind === 'forge-3des') {
    const asn1 = forge.pkcs12.toPkcs12Asn1(identity.key, [identity.certificate], password, {
      algorithm: '3des',
      friendlyName: 'signing',
    });
    return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'p12-'));
  try {
    fs.writeFileSync(path.join(dir, 'key.pem'), forge.pki.privateKeyToPem(identity.key));
    fs.writeFileSync(path.join(dir, 'cert.pem'), forge.pki.certificateToPem(identity.certificate));
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
