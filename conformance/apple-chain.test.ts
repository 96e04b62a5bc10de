/**
 * Real Apple-issued certificates from the fixtures (the fastlane distribution certificate and the developer
 * certificates listed in the fixture profiles) chain to the right WWDR intermediate and Apple root from the
 * shipped set (apps/server/src/signing/apple-pki.ts): the one ../shared/apple-pki names as the leaf's issuer,
 * and OpenSSL verifies leaf → intermediate → root with them (times aside: the fixtures have expired).
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parsePlist } from 'plist';
import { afterAll, describe, expect, it } from 'vitest';
import { completeChain } from '../apps/server/src/signing/certificate-chain.ts';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const fixturesDir = resolve(repoRoot, process.env.FIXTURES_DIR ?? '../shared/fixtures');
const pkiDir = resolve(fixturesDir, '../apple-pki');
const work = mkdtempSync(join(tmpdir(), 'apple-chain-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The developer certificates a profile lists (its CMS content read by OpenSSL, not by our code). */
function listedCertificates(file: string): Buffer[] {
  const xml = execFileSync('openssl', ['smime', '-verify', '-noverify', '-inform', 'DER', '-in', file], {
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString('utf8');
  const dict = parsePlist(xml) as { DeveloperCertificates?: Buffer[] };
  return (dict.DeveloperCertificates ?? []).map((der) => Buffer.from(der));
}

const appleIssued: Array<[string, Buffer]> = [
  [
    'fastlane-iPhoneDistribution-E7P4EE896K.cer',
    readFileSync(join(fixturesDir, 'other/fastlane-iPhoneDistribution-E7P4EE896K.cer')),
  ],
];
for (const name of readdirSync(join(fixturesDir, 'mobileprovision')).filter((n) => n.endsWith('.mobileprovision'))) {
  let listed: Buffer[] = [];
  try {
    listed = listedCertificates(join(fixturesDir, 'mobileprovision', name));
  } catch {
    continue; // an unsigned profile (bare plist) lists nothing to check here
  }
  listed.forEach((der, i) => {
    if (new X509Certificate(der).issuer.includes('O=Apple Inc.')) appleIssued.push([`${name} #${i}`, der]);
  });
}

/** The PEM file of ../shared/apple-pki whose subject is `subject` and that OpenSSL says issued `certificate`. */
function sharedIssuerOf(certificate: X509Certificate): { file: string; cert: X509Certificate } {
  const matches = readdirSync(pkiDir)
    .filter((file) => file.endsWith('.pem'))
    .map((file) => ({ file, cert: new X509Certificate(readFileSync(join(pkiDir, file))) }))
    .filter(({ cert }) => cert.subject === certificate.issuer && certificate.verify(cert.publicKey));
  expect(matches.length).toBe(1);
  return matches[0] as { file: string; cert: X509Certificate };
}

describe('real Apple-issued certificates chain to the shipped WWDR intermediate and root', () => {
  it('finds Apple-issued certificates in the fixtures', () => {
    expect(appleIssued.length).toBeGreaterThan(1);
  });

  it.each(appleIssued)('%s', (label, der) => {
    const leaf = new X509Certificate(der);
    const chain = completeChain(der, []).map((bytes) => new X509Certificate(bytes));
    const intermediate = sharedIssuerOf(leaf);
    const root = sharedIssuerOf(intermediate.cert);
    expect(chain.map((c) => c.fingerprint256)).toEqual([intermediate.cert.fingerprint256, root.cert.fingerprint256]);
    const base = join(work, label.replace(/[^\w.-]/g, '_'));
    writeFileSync(`${base}.leaf.pem`, leaf.toString());
    writeFileSync(`${base}.intermediate.pem`, chain[0]?.toString() ?? '');
    writeFileSync(`${base}.root.pem`, chain[1]?.toString() ?? '');
    const verified = execFileSync(
      'openssl',
      [
        'verify',
        '-no_check_time',
        // Apple's leaves mark its developer-certificate extension (1.2.840.113635.100.6.1.x) critical; OpenSSL does not know it.
        '-ignore_critical',
        '-CAfile',
        `${base}.root.pem`,
        '-untrusted',
        `${base}.intermediate.pem`,
        `${base}.leaf.pem`,
      ],
      { encoding: 'utf8' },
    );
    expect(verified.trim()).toBe(`${base}.leaf.pem: OK`);
  });
});
