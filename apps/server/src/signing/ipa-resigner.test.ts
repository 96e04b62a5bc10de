import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesAt } from './app-files.ts';
import { BundleSigningError } from './bundle-signer.ts';
import { buildZip, type ZipEntrySpec } from '@release/inspect/testing/zip-writer.ts';
import { parseCodeResources } from './code-resources.ts';
import { loadAppFiles, openIpa, rawEntryStream, readEntry } from './ipa-archive.ts';
import { resignIpa, type ResignStage } from './ipa-resigner.ts';
import { sampleSignedIpa, sampleSignedIpaEntries, sampleSigningSet } from './testing/ipa-builder.ts';
import { verifyApp } from './verify-app.ts';
import { verifyMachO } from './verify-macho.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resign-ipa-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const set = sampleSigningSet();

function write(name: string, bytes: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function filesOf(file: string) {
  const archive = await openIpa(file);
  try {
    return await loadAppFiles(archive);
  } finally {
    archive.close();
  }
}

/** Every file entry's data exactly as stored in the archive. */
async function rawEntries(file: string): Promise<Map<string, Buffer>> {
  const archive = await openIpa(file);
  const out = new Map<string, Buffer>();
  try {
    for (const entry of archive.entries) {
      if (entry.fileName.endsWith('/')) continue;
      const chunks: Buffer[] = [];
      for await (const chunk of rawEntryStream(archive, entry)) chunks.push(chunk);
      out.set(entry.fileName, Buffer.concat(chunks));
    }
  } finally {
    archive.close();
  }
  return out;
}

/** Every entry of an ipa, its files inflated, to write it again with one changed. */
async function entriesOf(file: string): Promise<ZipEntrySpec[]> {
  const archive = await openIpa(file);
  try {
    const specs: ZipEntrySpec[] = [];
    for (const entry of archive.entries)
      specs.push(
        entry.fileName.endsWith('/')
          ? { name: entry.fileName }
          : { name: entry.fileName, data: await readEntry(archive, entry), method: 'deflate' },
      );
    return specs;
  } finally {
    archive.close();
  }
}

describe('resignIpa', () => {
  it('re-signs an ipa file into a new one that the verifier passes, keeping every entry, reporting progress up to 100', async () => {
    const source = write('in.ipa', sampleSignedIpa());
    const output = path.join(dir, 'out.ipa');
    const progress: Array<[ResignStage, number]> = [];
    const bytes: Array<[ResignStage, number, number]> = [];
    const result = await resignIpa(source, output, set.input(), (stage, percent, done, total) => {
      progress.push([stage, percent]);
      bytes.push([stage, done, total]);
    });
    expect(result.signed.map((bundle) => bundle.bundleId)).toEqual([
      'com.example.Kit',
      'com.example.demo.widget',
      'com.example.demo',
    ]);
    const files = await filesOf(output);
    expect(verifyApp(files)).toEqual([]);
    expect(bytesAt(files, 'Payload/Demo.app/embedded.mobileprovision')?.equals(set.mainProfile)).toBe(true);
    expect(
      bytesAt(files, 'Payload/Demo.app/PlugIns/Widget.appex/embedded.mobileprovision')?.equals(set.wildcardProfile),
    ).toBe(true);
    // Resources were not held: they are digests, and they come out unchanged.
    const before = await filesOf(source);
    expect(files.get('Payload/Demo.app/Assets.car')).toEqual(before.get('Payload/Demo.app/Assets.car'));
    expect([...files.keys()].sort()).toEqual(
      [
        ...new Set([
          ...before.keys(),
          'Payload/Demo.app/_CodeSignature/CodeResources',
          'Payload/Demo.app/PlugIns/Widget.appex/_CodeSignature/CodeResources',
          'Payload/Demo.app/PlugIns/Widget.appex/embedded.mobileprovision',
          'Payload/Demo.app/Frameworks/Kit.framework/_CodeSignature/CodeResources',
        ]),
      ].sort(),
    );
    const percents = progress.map(([, percent]) => percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(progress.at(-1)).toEqual(['verify', 100]);
    // Progress by bytes: the read stage counts up to every resource's inflated bytes, the verifier to the whole app.
    const sizes = [...(await filesOf(source)).values()].map((file) =>
      Buffer.isBuffer(file) ? file.length : file.size,
    );
    const read = bytes.filter(([stage]) => stage === 'read');
    expect(read.map(([, done]) => done)).toEqual([...read.map(([, done]) => done)].sort((a, b) => a - b));
    expect(read.at(-1)?.[1]).toBe(read.at(-1)?.[2]);
    expect(read.at(-1)?.[2]).toBeGreaterThan(0);
    expect(read.at(-1)?.[2]).toBeLessThan(sizes.reduce((sum, size) => sum + size, 0));
    const verified = bytes.filter(([stage, , total]) => stage === 'verify' && total > 0).at(-1);
    expect(verified?.[1]).toBe(verified?.[2]);
    expect(new Set(progress.map(([stage]) => stage))).toEqual(new Set(['read', 'sign', 'write', 'verify']));
  });

  it('copies unchanged entries compressed byte for byte, writes only what signing changed, and unzip accepts the result', async () => {
    const source = write('copy-in.ipa', sampleSignedIpa());
    const output = path.join(dir, 'copy-out.ipa');
    await resignIpa(source, output, set.input());
    const [before, after] = [await rawEntries(source), await rawEntries(output)];
    for (const name of ['Payload/Demo.app/Assets.car', 'Payload/Demo.app/zh-Hans.lproj/Localizable.strings'])
      expect(after.get(name)?.equals(before.get(name) as Buffer), name).toBe(true);
    // The Info.plist did not change: copied too. The executable and the profile were written anew.
    expect(after.get('Payload/Demo.app/Info.plist')?.equals(before.get('Payload/Demo.app/Info.plist') as Buffer)).toBe(
      true,
    );
    expect(after.get('Payload/Demo.app/Demo')?.equals(before.get('Payload/Demo.app/Demo') as Buffer)).toBe(false);
    // An independent reader: every entry inflates to its CRC-32.
    expect(execFileSync('unzip', ['-tq', output], { encoding: 'utf8' })).toContain('No errors detected');
  });

  it('copies resources larger than its 1 MiB read buffer byte for byte, deflated and stored, and seals their bytes', async () => {
    const random = (size: number) => randomBytes(size);
    const deflated = random(3 * 1024 * 1024 + 123);
    const stored = random(2 * 1024 * 1024 + 7);
    const source = write(
      'big-resources-in.ipa',
      buildZip([
        ...sampleSignedIpaEntries(),
        { name: 'Payload/Demo.app/Data/level.bundle', data: deflated, method: 'deflate' },
        { name: 'Payload/Demo.app/Data/movie.mp4', data: stored, method: 'store' },
      ]),
    );
    const output = path.join(dir, 'big-resources-out.ipa');
    await resignIpa(source, output, set.input());
    const [before, after] = [await rawEntries(source), await rawEntries(output)];
    for (const name of ['Payload/Demo.app/Data/level.bundle', 'Payload/Demo.app/Data/movie.mp4'])
      expect(after.get(name)?.equals(before.get(name) as Buffer), name).toBe(true);
    expect(execFileSync('unzip', ['-tq', output], { encoding: 'utf8' })).toContain('No errors detected');
    const seal = parseCodeResources(
      execFileSync('unzip', ['-p', output, 'Payload/Demo.app/_CodeSignature/CodeResources']),
    );
    expect(seal?.files2.get('Data/level.bundle')?.hash2).toEqual(createHash('sha256').update(deflated).digest());
    expect(seal?.files2.get('Data/movie.mp4')?.hash2).toEqual(createHash('sha256').update(stored).digest());
    expect(verifyApp(await filesOf(output))).toEqual([]);
  });

  it('deflates a large executable while writing it: the written entry inflates to what was signed and the verifier passes', async () => {
    const source = write('large-in.ipa', sampleSignedIpa({ mainCodeSize: 12 * 1024 * 1024 }));
    const output = path.join(dir, 'large-out.ipa');
    await resignIpa(source, output, set.input());
    expect(execFileSync('unzip', ['-tq', output], { encoding: 'utf8' })).toContain('No errors detected');
    const files = await filesOf(output);
    expect(verifyApp(files)).toEqual([]);
    const written = (await rawEntries(output)).get('Payload/Demo.app/Demo');
    expect((bytesAt(files, 'Payload/Demo.app/Demo')?.length ?? 0) > 12 * 1024 * 1024).toBe(true);
    expect((written?.length ?? 0) < 12 * 1024 * 1024).toBe(true);
  });

  it('streams a large framework executable (as UnityFramework): the app seals its signed bytes, unzip and the verifier agree', async () => {
    const source = write('framework-in.ipa', sampleSignedIpa({ frameworkCodeSize: 9 * 1024 * 1024 }));
    const output = path.join(dir, 'framework-out.ipa');
    await resignIpa(source, output, set.input());
    expect(execFileSync('unzip', ['-tq', output], { encoding: 'utf8' })).toContain('No errors detected');
    const kitPath = 'Payload/Demo.app/Frameworks/Kit.framework/Kit';
    // Read whole by an independent reader: what the app's seal says of it, and its own signature.
    const kit = execFileSync('unzip', ['-p', output, kitPath], { maxBuffer: 64 * 1024 * 1024 });
    const seal = parseCodeResources(
      execFileSync('unzip', ['-p', output, 'Payload/Demo.app/_CodeSignature/CodeResources']),
    );
    expect(seal?.files2.get('Frameworks/Kit.framework/Kit')?.hash2).toEqual(createHash('sha256').update(kit).digest());
    expect(seal?.files.get('Frameworks/Kit.framework/Kit')?.hash).toEqual(createHash('sha1').update(kit).digest());
    const kitSeal = execFileSync('unzip', [
      '-p',
      output,
      'Payload/Demo.app/Frameworks/Kit.framework/_CodeSignature/CodeResources',
    ]);
    const kitInfo = execFileSync('unzip', ['-p', output, 'Payload/Demo.app/Frameworks/Kit.framework/Info.plist']);
    expect(verifyMachO(kit, { infoPlist: kitInfo, codeResources: kitSeal })).toEqual([]);
    expect(verifyApp(await filesOf(output))).toEqual([]);
    // The built-in verifier reads it streamed as well: a changed byte in its signature fails the app's seal.
    const tampered = Buffer.from(kit);
    tampered.writeUInt8(tampered.readUInt8(kit.length - 100) ^ 1, kit.length - 100);
    const entries = await entriesOf(output);
    const changed = write(
      'framework-changed.ipa',
      buildZip(entries.map((spec) => (spec.name === kitPath ? { ...spec, data: tampered } : spec))),
    );
    expect(verifyApp(await filesOf(changed))).toEqual(
      expect.arrayContaining(['Payload/Demo.app/: Frameworks/Kit.framework/Kit changed after signing']),
    );
  });

  it('refuses a source whose resource does not match its CRC-32, naming the entry', async () => {
    const bytes = sampleSignedIpa();
    const at = bytes.indexOf(Buffer.from('"ok" = "好";'));
    bytes.writeUInt8(bytes.readUInt8(at + 1) ^ 0x20, at + 1);
    const corrupt = write('corrupt.ipa', bytes);
    await expect(resignIpa(corrupt, path.join(dir, 'z.ipa'), set.input())).rejects.toThrow(
      'ipa 文件已损坏：Payload/Demo.app/zh-Hans.lproj/Localizable.strings',
    );
  });

  it('refuses an App Store-encrypted binary and a signing set with no profile for a bundle, writing nothing usable', async () => {
    const encrypted = write('encrypted.ipa', sampleSignedIpa({ encrypted: true }));
    await expect(resignIpa(encrypted, path.join(dir, 'x.ipa'), set.input())).rejects.toMatchObject({
      name: 'SigningError',
      reason: 'encrypted',
    });
    const plain = write('plain.ipa', sampleSignedIpa());
    const error = await resignIpa(plain, path.join(dir, 'y.ipa'), set.input(['main'])).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BundleSigningError);
    expect(error).toMatchObject({ reason: 'noProfile', bundleId: 'com.example.demo.widget' });
  });
});
