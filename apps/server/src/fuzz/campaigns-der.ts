import forge from 'node-forge';
import { Asn1Error, cmsCertificates, cmsSignedContent, parseAsn1 } from '@release/inspect/der.ts';
import { openP12, P12Error } from '@release/inspect/p12.ts';
import { makeP12 } from '@release/inspect/testing/identities.ts';
import { makeProfile, profileDict } from '@release/inspect/testing/packages.ts';
import { signCms } from '@release/inspect/testing/signing.ts';
import { derBoundaries } from './boundaries.ts';
import { input, isOneOf, type Campaign, type FuzzInput } from './campaign.ts';
import { fuzzSigner } from './campaigns-plist.ts';
import { asBuiltAndCut, mutationsOf } from './mutate.ts';

/** CMS / ASN.1 DER and PKCS#12: deep, wide, lying lengths; real samples cut and mutated. */

function definite(tag: number, content: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(content.length);
  return Buffer.concat([Buffer.from([tag, 0x84]), length, content]);
}

function hostileDer(): FuzzInput[] {
  const repeat = (bytes: number[], times: number) => Buffer.from(Array.from({ length: times }, () => bytes).flat());
  return [
    input('indefinite SEQUENCEs nested 100,000 deep', () =>
      Buffer.concat([repeat([0x30, 0x80], 100_000), Buffer.alloc(200_000)]),
    ),
    input('indefinite SEQUENCEs nested 100,000 deep, never closed', () => repeat([0x30, 0x80], 100_000)),
    input('definite SEQUENCEs nested 1,000 deep', () => {
      let node: Buffer = Buffer.from([0x05, 0x00]);
      for (let i = 0; i < 1000; i += 1) node = definite(0x30, node);
      return node;
    }),
    input('a SEQUENCE of 300,000 NULLs', () => definite(0x30, repeat([0x05, 0x00], 300_000))),
    input('a SEQUENCE claiming 2^48-1 bytes', () =>
      Buffer.from([0x30, 0x86, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x05, 0x00]),
    ),
    input('a SEQUENCE claiming 2^56 bytes (7 length octets)', () =>
      Buffer.from([0x30, 0x87, 0x01, 0, 0, 0, 0, 0, 0, 0x05, 0x00]),
    ),
    input('a primitive with an indefinite length', () => Buffer.from([0x04, 0x80, 0x01, 0x00, 0x00])),
    input('a high tag number', () => Buffer.from([0x1f, 0x81, 0x01, 0x00])),
    input('ContentInfo with SignedData of 100,000 empty certificates', () =>
      definite(
        0x30,
        Buffer.concat([
          Buffer.from([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]),
          definite(
            0xa0,
            definite(
              0x30,
              Buffer.concat([
                Buffer.from([0x02, 0x01, 0x01, 0x31, 0x00, 0x30, 0x00]),
                definite(0xa0, repeat([0x30, 0x00], 100_000)),
              ]),
            ),
          ),
        ]),
      ),
    ),
  ];
}

export const derCampaign: Campaign = {
  name: 'CMS / DER',
  inputs(random) {
    const profile = makeProfile(profileDict([fuzzSigner().der]), fuzzSigner());
    const detached = signCms(Buffer.from('Signature-Version: 1.0\r\n\r\n'), fuzzSigner(), { detached: true });
    const certificate = fuzzSigner().der;
    const samples = { 'signed profile': profile, 'detached signature': detached, certificate };
    return [
      ...Object.entries(samples).flatMap(([name, bytes]) => asBuiltAndCut(name, bytes, derBoundaries)),
      ...hostileDer(),
      ...Object.entries(samples).flatMap(([name, bytes]) => mutationsOf(name, bytes, 100, random)),
    ];
  },
  run(bytes) {
    parseAsn1(bytes);
    cmsSignedContent(bytes);
    return cmsCertificates(bytes);
  },
  refuses: (error) => error instanceof Asn1Error,
};

const PASSWORD = 'fuzz-secret';

export const p12Campaign: Campaign = {
  name: 'PKCS#12',
  inputs(random) {
    const signer = fuzzSigner();
    // Few key-derivation iterations, so a run of mutations stays quick; mutations may raise them past the limit.
    const forge3des = Buffer.from(
      forge.asn1
        .toDer(forge.pkcs12.toPkcs12Asn1(signer.key, [signer.certificate], PASSWORD, { algorithm: '3des', count: 64 }))
        .getBytes(),
      'binary',
    );
    const opensslAes = makeP12(signer, PASSWORD, 'openssl-aes', { iterations: 64 });
    const samples = { 'forge 3DES .p12': forge3des, 'OpenSSL AES .p12': opensslAes };
    return [
      ...Object.entries(samples).flatMap(([name, bytes]) => asBuiltAndCut(name, bytes, derBoundaries)),
      ...hostileDer(),
      ...Object.entries(samples).flatMap(([name, bytes]) => mutationsOf(name, bytes, 60, random)),
    ];
  },
  run: (bytes) => openP12(bytes, PASSWORD),
  refuses: (error) => isOneOf(error, [P12Error]),
};
