import { spawnSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { makeAppleIdentity } from '@release/inspect/testing/identities.ts';
import { signingTimeWithin } from '@release/inspect/testing/signing.ts';
import { CS_HASHTYPE, readEmbeddedSignature } from './code-signature.ts';
import { cdHashesPlist, signCodeDirectories } from './cms-sign.ts';
import { verifyCodeDirectoryCms } from './cms-verify.ts';
import { parseMachO } from './macho.ts';
import { buildThinMachO } from './testing/macho-builder.ts';

const identity = makeAppleIdentity({ commonName: 'Apple Development: 张三 (TEAM123456)' });
const privateKey = createPrivateKey(forge.pki.privateKeyToPem(identity.key));
const intermediate = makeAppleIdentity({ commonName: 'Test WWDR Intermediate', serial: '0b0b' });

function directories() {
  const bytes = buildThinMachO({
    signature: { identifier: 'com.example.app', teamId: 'TEAM123456', hashType: CS_HASHTYPE.sha1 },
  });
  const signature = readEmbeddedSignature(bytes, parseMachO(bytes).slices[0]!);
  return signature!.codeDirectories;
}

/** OpenSSL as the independent judge: the detached CMS verifies over the CodeDirectory bytes. */
function opensslVerifies(cms: Buffer, content: Buffer): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-'));
  try {
    fs.writeFileSync(path.join(dir, 'sig.der'), cms);
    fs.writeFileSync(path.join(dir, 'cd.bin'), content);
    const run = spawnSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-inform',
        'DER',
        '-in',
        'sig.der',
        '-content',
        'cd.bin',
        '-binary',
        '-noverify',
        '-out',
        '/dev/null',
      ],
      { cwd: dir },
    );
    return run.status === 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('signCodeDirectories', () => {
  it("signs the primary CodeDirectory with Apple's cdhash attributes; our verifier and OpenSSL both accept it", () => {
    const cds = directories();
    const signedAt = signingTimeWithin(identity.certificate);
    const cms = signCodeDirectories({
      codeDirectories: cds,
      certificate: identity.der,
      chain: [intermediate.der],
      privateKey,
      signingTime: signedAt,
    });
    const result = verifyCodeDirectoryCms(cms, cds);
    expect(result.failures).toEqual([]);
    expect(result.signerCertificate?.equals(identity.der)).toBe(true);
    expect(result.signingTime?.toISOString()).toBe(signedAt.toISOString());
    expect(result.cdHashes).toEqual(cds.map((cd) => cd.cdhash.toString('hex')));
    expect(result.cdHashes2?.map((pair) => pair.algorithm)).toEqual(['sha1', 'sha256']);
    expect(opensslVerifies(cms, cds[0]!.data)).toBe(true);
    expect(opensslVerifies(cms, cds[1]!.data)).toBe(false);
  });

  it('writes the 9.1 plist as Xcode does', () => {
    const [primary] = directories();
    expect(cdHashesPlist([primary!]).toString()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n\t<key>cdhashes</key>\n\t<array>\n\t\t<data>\n\t\t' +
        primary!.cdhash.toString('base64') +
        '\n\t\t</data>\n\t</array>\n</dict>\n</plist>\n',
    );
  });

  it('refuses a key that is not the certificate’s', () => {
    const other = createPrivateKey(forge.pki.privateKeyToPem(intermediate.key));
    expect(() =>
      signCodeDirectories({
        codeDirectories: directories(),
        certificate: identity.der,
        chain: [],
        privateKey: other,
        signingTime: new Date(),
      }),
    ).toThrow('not the certificate');
  });
});
