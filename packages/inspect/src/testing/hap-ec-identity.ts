import { spawnSync } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import {
  hapProfileJson,
  hapSigningBlock,
  harmonyIdentities,
  type HapProfileOptions,
  makeIssuedIdentity,
} from './hap-builder.ts';
import { sampleHapEntries, type SampleHapOptions } from './hap-builder.ts';
import { signCms } from './signing.ts';
import { buildZip } from './zip-writer.ts';

/**
 * A HarmonyOS release identity as Huawei issues it: an EC P-256 key, its certificate issued by the test developer CA
 * (harmonyIdentities), the .p12 an admin uploads, and modules whose sign block names that certificate. forge writes
 * RSA certificates only, so the certificate is forge's with the EC public key put in and the TBS re-signed by the CA;
 * openssl writes the .p12 and the CMS (installed wherever the tests run, as for makeP12).
 */
export interface EcHarmonyIdentity {
  privateKey: KeyObject;
  /** base64 SPKI DER: what the inspector records as `signature.publicKey`. */
  publicKey: string;
  der: Buffer;
  pem: string;
  p12(password: string): Buffer;
  hap(options: SampleHapOptions & { profile: HapProfileOptions }): Buffer;
}

export function makeEcHarmonyIdentity(
  commonName: string,
  options: { serial?: string; notBefore?: Date; notAfter?: Date } = {},
): EcHarmonyIdentity {
  const { ca, root, profileSigner } = harmonyIdentities();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const shell = makeIssuedIdentity(commonName, { ...options, issuer: ca, serial: options.serial ?? '0e' });
  const asn1 = forge.pki.certificateToAsn1(shell.certificate);
  const tbs = (asn1.value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1;
  // TBSCertificate: [0] version, serial, signature, issuer, validity, subject, subjectPublicKeyInfo, …
  (tbs.value as forge.asn1.Asn1[])[6] = forge.asn1.fromDer(forge.util.createBuffer(spki.toString('binary')));
  const tbsDer = Buffer.from(forge.asn1.toDer(tbs).getBytes(), 'binary');
  const caKey = createPrivateKey(forge.pki.privateKeyToPem(ca.key));
  const signature = sign('sha256', tbsDer, caKey);
  (asn1.value as forge.asn1.Asn1[])[2] = forge.asn1.create(
    forge.asn1.Class.UNIVERSAL,
    forge.asn1.Type.BITSTRING,
    false,
    `\0${signature.toString('binary')}`,
  );
  const der = Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
  const pem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
  const chainPem = [ca, root].map((c) => forge.pki.certificateToPem(c.certificate)).join('');

  const openssl = (args: string[], files: Record<string, string | Buffer>, out: string): Buffer => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hap-ec-'));
    try {
      fs.writeFileSync(path.join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
      fs.writeFileSync(path.join(dir, 'cert.pem'), pem);
      fs.writeFileSync(path.join(dir, 'chain.pem'), chainPem);
      for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), data);
      const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`);
      return fs.readFileSync(path.join(dir, out));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const cms = openssl(
    ['cms', '-sign', '-binary', '-nodetach', '-md', 'sha256', '-signer', 'cert.pem', '-inkey', 'key.pem'].concat([
      '-certfile',
      'chain.pem',
      '-in',
      'content',
      '-outform',
      'DER',
      '-out',
      'out.der',
    ]),
    { content: Buffer.alloc(32, 1) },
    'out.der',
  );

  return {
    privateKey,
    publicKey: spki.toString('base64'),
    der,
    pem,
    p12: (password) =>
      openssl(
        ['pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-certfile', 'chain.pem'].concat([
          '-passout',
          `pass:${password}`,
          '-out',
          'out.p12',
        ]),
        {},
        'out.p12',
      ),
    hap(hapOptions) {
      const profile = hapProfileJson(harmonyIdentities().developer, hapOptions.profile);
      const bundleInfo = profile['bundle-info'] as Record<string, unknown>;
      const certificateKey =
        hapOptions.profile.type === 'debug' ? 'development-certificate' : 'distribution-certificate';
      bundleInfo[certificateKey] = pem;
      const block = hapSigningBlock([
        [0x20000002, signCms(Buffer.from(JSON.stringify(profile)), profileSigner, { extraCertificates: [root] })],
        [0x20000000, cms],
      ]);
      return buildZip(sampleHapEntries(hapOptions), { beforeCentralDirectory: block });
    },
  };
}
