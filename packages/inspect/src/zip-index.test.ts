import { afterAll, describe, expect, it } from 'vitest';
import { reasonOf } from './testing/expect-failure.ts';
import { createTempDir } from './testing/temp-files.ts';
import { buildZip } from './testing/zip-writer.ts';
import { defaultLimits, openZipIndex } from './zip-index.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());

describe('openZipIndex', () => {
  it('indexes every entry and reads only the ones asked for', async () => {
    const path = temp.write(
      'ok.zip',
      buildZip([
        { name: 'a.txt', data: 'hello' },
        { name: 'dir/' },
        { name: 'dir/b.bin', data: Buffer.alloc(10_000, 7), method: 'deflate' },
      ]),
    );
    const zip = await openZipIndex(path);
    try {
      expect([...zip.entries.keys()]).toEqual(['a.txt', 'dir/', 'dir/b.bin']);
      expect(zip.entries.get('dir/')?.isDirectory).toBe(true);
      expect(zip.totalUncompressedBytes).toBe(10_005);
      expect((await zip.readEntry('a.txt')).toString()).toBe('hello');
      expect(await zip.readEntry('dir/b.bin')).toEqual(Buffer.alloc(10_000, 7));
    } finally {
      await zip.close();
    }
  });

  it('rejects a 0-byte file', async () => {
    expect(await reasonOf(() => openZipIndex(temp.write('empty.ipa', Buffer.alloc(0))))).toBe('emptyFile');
  });

  it('rejects a file that is not a zip', async () => {
    expect(await reasonOf(() => openZipIndex(temp.write('x.apk', 'just some text, not an archive')))).toBe(
      'notAPackage',
    );
  });

  it('reports a zip cut short as corrupt, not as a foreign file', async () => {
    const whole = buildZip([{ name: 'a.bin', data: Buffer.alloc(5000, 1), method: 'store' }]);
    const path = temp.write('cut.ipa', whole.subarray(0, whole.length - 40));
    expect(await reasonOf(() => openZipIndex(path))).toBe('corrupt');
  });

  it('reports damaged entry data as corrupt when the entry is read', async () => {
    let seed = 1;
    const noisy = Buffer.from(
      Array.from({ length: 4000 }, () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed >> 23;
      }),
    );
    const whole = buildZip([{ name: 'a.bin', data: noisy, method: 'deflate' }]);
    whole.fill(0xff, 60, 200);
    const zip = await openZipIndex(temp.write('damaged.zip', whole));
    try {
      expect(await reasonOf(() => zip.readEntry('a.bin'))).toBe('corrupt');
    } finally {
      await zip.close();
    }
  });

  it.each(['../evil.sh', 'Payload/../../etc/passwd', '/etc/passwd', 'C:/Windows/x.dll', '..\\windows.txt'])(
    'rejects the path %s',
    async (name) => {
      const path = temp.write(
        'slip.zip',
        buildZip([
          { name: 'ok.txt', data: 'ok' },
          { name, data: 'pwned' },
        ]),
      );
      expect(await reasonOf(() => openZipIndex(path))).toBe('illegalPath');
    },
  );

  it('rejects an entry that inflates far beyond its compressed size', async () => {
    const zeros = Buffer.alloc(70 * 1024 * 1024);
    const path = temp.write('bomb.zip', buildZip([{ name: 'zeros.bin', data: zeros, method: 'deflate' }]));
    expect(await reasonOf(() => openZipIndex(path))).toBe('zipBomb');
  });

  it('rejects archives that declare an absurd total size', async () => {
    const path = temp.write(
      'liar.zip',
      buildZip([
        { name: 'a.bin', data: Buffer.alloc(2000, 3), method: 'deflate', declaredUncompressedSize: 4_000_000_000 },
        { name: 'b.bin', data: Buffer.alloc(2000, 3), method: 'deflate', declaredUncompressedSize: 4_000_000_000 },
      ]),
    );
    expect(
      await reasonOf(() => openZipIndex(path, { ...defaultLimits, maxTotalUncompressedBytes: 1_000_000_000 })),
    ).toBe('zipBomb');
  });

  it('rejects overlapping entries (non-recursive zip bomb)', async () => {
    const kernel = { name: 'k0', data: Buffer.alloc(50_000, 9), method: 'deflate' as const };
    const copies = Array.from({ length: 20 }, (_, index) => ({ name: `k${index + 1}`, sameLocalHeaderAs: 0 }));
    const path = temp.write('overlap.zip', buildZip([kernel, ...copies]));
    expect(await reasonOf(() => openZipIndex(path))).toBe('zipBomb');
  });

  it('refuses to load a metadata entry above the entry limit', async () => {
    const path = temp.write(
      'big-entry.zip',
      buildZip([{ name: 'Info.plist', data: Buffer.alloc(300_000, 1), method: 'deflate' }]),
    );
    const zip = await openZipIndex(path, { ...defaultLimits, maxEntryBytes: 100_000 });
    try {
      expect(await reasonOf(() => zip.readEntry('Info.plist'))).toBe('entryTooLarge');
    } finally {
      await zip.close();
    }
  });

  it('indexes an archive of 50,000 entries and still finds each one', async () => {
    const entries = Array.from({ length: 50_000 }, (_, index) => ({
      name: `Payload/Game.app/assets/${index}.dat`,
      data: `#${index}`,
    }));
    const zip = await openZipIndex(temp.write('many.zip', buildZip(entries)));
    try {
      expect(zip.entries.size).toBe(50_000);
      expect((await zip.readEntry('Payload/Game.app/assets/49999.dat')).toString()).toBe('#49999');
      expect((await zip.readEntry('Payload/Game.app/assets/0.dat')).toString()).toBe('#0');
    } finally {
      await zip.close();
    }
  });

  it('reads a deflated entry whose declared compressed size runs far past its stream, without reading it all', async () => {
    const padding = 8 * 1024 * 1024;
    const whole = buildZip([{ name: 'Info.plist', data: 'plist '.repeat(200), method: 'deflate' }], {
      beforeCentralDirectory: Buffer.alloc(padding, 7),
    });
    const cdStart = whole.readUInt32LE(whole.length - 22 + 16);
    whole.writeUInt32LE(whole.readUInt32LE(cdStart + 20) + padding, cdStart + 20);
    const zip = await openZipIndex(temp.write('padded.zip', whole));
    try {
      expect(zip.entries.get('Info.plist')?.compressedSize).toBeGreaterThan(padding);
      expect((await zip.readEntry('Info.plist')).toString()).toBe('plist '.repeat(200));
    } finally {
      await zip.close();
    }
  });

  it('closes cleanly and reads again from a fresh index', async () => {
    const path = temp.write('twice.zip', buildZip([{ name: 'a.txt', data: 'again' }]));
    for (let round = 0; round < 3; round += 1) {
      const zip = await openZipIndex(path);
      expect((await zip.readEntry('a.txt')).toString()).toBe('again');
      await zip.close();
    }
  });
});
