import { randomUUID } from 'node:crypto';
import { lazyRequire } from '@release/inspect/lazy-require.ts';
import { build as buildPlist } from 'plist';
import type forge from 'node-forge';

/** node-forge loads with the first profile signed, not when the server starts. */
const forgeLib = lazyRequire<typeof forge>('node-forge', import.meta.url);

/** What the device is asked to send back (Apple's Over-the-Air Profile Delivery). */
export const DEVICE_ATTRIBUTES = ['UDID', 'IMEI', 'ICCID', 'VERSION', 'PRODUCT', 'SERIAL'] as const;

export interface ProfileServiceInput {
  /** Absolute callback URL the device POSTs its signed attributes to. */
  callbackUrl: string;
  /** One-time challenge, echoed back by the device as CHALLENGE. */
  challenge: string;
  /** Host name shown in the description ("sends this device's UDID to …"). */
  host: string;
  /** Reverse-DNS identifier base; the host reversed when not given. */
  identifier?: string;
}

/** The `.mobileconfig` of PayloadType `Profile Service` (packages.md §2.3), as an XML plist. */
export function buildProfileServiceConfig(input: ProfileServiceInput): string {
  const identifier =
    input.identifier ??
    `${input.host.split(/[.:]/).filter(Boolean).reverse().join('.') || 'local'}.release.profile-service`;
  return buildPlist({
    PayloadType: 'Profile Service',
    PayloadVersion: 1,
    PayloadIdentifier: identifier,
    PayloadUUID: randomUUID().toUpperCase(),
    PayloadDisplayName: '注册此设备',
    PayloadOrganization: '发布系统',
    PayloadDescription: `安装后本设备的 UDID、型号和系统版本会发送给 ${input.host}，用于把设备加入测试包的描述文件；不会在设备上留下任何配置。`,
    PayloadContent: {
      URL: input.callbackUrl,
      DeviceAttributes: [...DEVICE_ATTRIBUTES],
      Challenge: input.challenge,
    },
  });
}

/** A server identity that signs the profile, so iOS shows it as verified when the certificate is trusted. */
export interface ProfileSigner {
  certificatePem: string;
  /** The rest of the chain (intermediates), PEM, possibly empty. */
  chainPem: string[];
  privateKeyPem: string;
}

/** Reads a PEM bundle (leaf first, then intermediates) and its RSA key; throws on anything unusable. */
export function loadProfileSigner(certificatesPem: string, privateKeyPem: string): ProfileSigner {
  const blocks = certificatesPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no certificate in the PEM file');
  const [leaf, ...chain] = blocks as [string, ...string[]];
  const { pki } = forgeLib();
  const cert = pki.certificateFromPem(leaf);
  const key = pki.privateKeyFromPem(privateKeyPem);
  const publicKey = cert.publicKey as forge.pki.rsa.PublicKey;
  if (publicKey.n.compareTo(key.n) !== 0) throw new Error('the private key does not belong to the certificate');
  return { certificatePem: leaf, chainPem: chain, privateKeyPem };
}

/** CMS SignedData (attached content, SHA-256) over the profile: what iOS accepts as a signed .mobileconfig. */
export function signMobileconfig(xml: string, signer: ProfileSigner, now = new Date()): Buffer {
  const { asn1, pkcs7, pki, util } = forgeLib();
  const p7 = pkcs7.createSignedData();
  p7.content = util.createBuffer(Buffer.from(xml, 'utf8').toString('binary'));
  const certificate = pki.certificateFromPem(signer.certificatePem);
  p7.addCertificate(certificate);
  for (const pem of signer.chainPem) p7.addCertificate(pki.certificateFromPem(pem));
  p7.addSigner({
    key: pki.privateKeyFromPem(signer.privateKeyPem),
    certificate,
    digestAlgorithm: pki.oids.sha256 as string,
    authenticatedAttributes: [
      { type: pki.oids.contentType as string, value: pki.oids.data as string },
      { type: pki.oids.messageDigest as string },
      { type: pki.oids.signingTime as string, value: now as unknown as string },
    ],
  });
  p7.sign();
  return Buffer.from(asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
}
