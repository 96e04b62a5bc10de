import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readEntry, openIpa } from './ipa-archive.ts';
import { compressEntry, ZipOut } from './zip-out.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-out-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const place = (name: string) => ({
  name,
  dosTime: 0x6000,
  dosDate: 0x5b21,
  externalAttributes: (0o100644 << 16) >>> 0,
});

describe('ZipOut', () => {
  it('writes a large file in parallel-deflated pieces that unzip and yauzl read back exactly, keeping the mode', async () => {
    const file = path.join(dir, 'pieces.zip');
    const big = Buffer.alloc(9 * 1024 * 1024 + 123);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251 < 200 ? i % 13 : (i * 31) % 256;
    const zip = new ZipOut(file);
    await zip.addDirectory({ ...place('Payload/'), externalAttributes: (0o40755 << 16) >>> 0 });
    const compressed = await compressEntry(big);
    expect(compressed.meta.method).toBe(8);
    expect(compressed.body.length).toBe(3);
    await zip.addCompressed({ ...place('Payload/big.bin'), externalAttributes: (0o100755 << 16) >>> 0 }, compressed);
    await zip.addCompressed(place('Payload/empty'), await compressEntry(Buffer.alloc(0)));
    await zip.finish();
    expect(execFileSync('unzip', ['-tq', file], { encoding: 'utf8' })).toContain('No errors detected');
    expect(execFileSync('zipinfo', [file, 'Payload/big.bin'], { encoding: 'utf8' })).toMatch(/^-rwxr-xr-x/);
    const archive = await openIpa(file);
    try {
      const entry = archive.entries.find((e) => e.fileName === 'Payload/big.bin');
      expect(entry && (await readEntry(archive, entry)).equals(big)).toBe(true);
    } finally {
      archive.close();
    }
  });

  it('switches to ZIP64 end records past 65,535 entries, and unzip lists every one', async () => {
    const file = path.join(dir, 'many.zip');
    const zip = new ZipOut(file);
    const count = 66_000;
    const stored = await compressEntry(Buffer.from('x'));
    for (let i = 0; i < count; i++) await zip.addCompressed(place(`f/${i}`), stored);
    await zip.finish();
    expect(execFileSync('unzip', ['-tq', file], { encoding: 'utf8' })).toContain('No errors detected');
    expect(execFileSync('zipinfo', ['-1', file], { encoding: 'utf8' }).trim().split('\n').length).toBe(count);
  });

  it('deflates a large file while writing it, then fills in its CRC-32 and sizes: unzip, zipinfo and yauzl agree', async () => {
    const file = path.join(dir, 'deflating.zip');
    const big = Buffer.alloc(19 * 1024 * 1024 + 5);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251 < 200 ? i % 13 : (i * 31) % 256;
    const zip = new ZipOut(file);
    await zip.addCompressed(place('before.txt'), await compressEntry(Buffer.from('before')));
    await zip.addDeflating({ ...place('Payload/Demo.app/Demo'), externalAttributes: (0o100755 << 16) >>> 0 }, big);
    await zip.addDeflating(place('Payload/empty'), Buffer.alloc(0));
    await zip.addCompressed(place('after.txt'), await compressEntry(Buffer.from('after')));
    await zip.finish();
    // unzip -t checks each local header against the data, so the filled-in CRC-32 and sizes must be right.
    expect(execFileSync('unzip', ['-tq', file], { encoding: 'utf8' })).toContain('No errors detected');
    expect(
      execFileSync('unzip', ['-p', file, 'Payload/Demo.app/Demo'], { maxBuffer: 64 * 1024 * 1024 }).equals(big),
    ).toBe(true);
    expect(execFileSync('zipinfo', [file, 'Payload/Demo.app/Demo'], { encoding: 'utf8' })).toMatch(/^-rwxr-xr-x/);
    const local = fs.readFileSync(file);
    const at = local.indexOf('Payload/Demo.app/Demo') - 30;
    expect([
      local.readUInt32LE(at + 14),
      local.readUInt32LE(at + 18) < big.length,
      local.readUInt32LE(at + 22),
    ]).toEqual([crc32(big) >>> 0, true, big.length]);
    const archive = await openIpa(file);
    try {
      const entry = archive.entries.find((e) => e.fileName === 'Payload/Demo.app/Demo');
      expect(entry && (await readEntry(archive, entry)).equals(big)).toBe(true);
      expect(archive.entries.map((e) => e.fileName)).toEqual([
        'before.txt',
        'Payload/Demo.app/Demo',
        'Payload/empty',
        'after.txt',
      ]);
    } finally {
      archive.close();
    }
  });
});
