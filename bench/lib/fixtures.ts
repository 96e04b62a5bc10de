import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sampleApkEntries, sampleIpaEntries } from '@release/inspect/testing/sample-packages.ts';
import { writeZip, type BenchZipEntry } from './zip-stream.ts';

/** The packages the benchmarks use, generated on disk (never whole in memory). */

const APP = 'Payload/Demo.app/';

const byName = (a: BenchZipEntry, b: BenchZipEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** An apk whose bulk is one STORED entry of random bytes (as game data in `assets/` usually is). */
export async function writeBigApk(dir: string, bulkBytes: number): Promise<{ file: string; size: number }> {
  const file = path.join(dir, 'bench-big.apk');
  const { entries, beforeCentralDirectory } = sampleApkEntries({ label: '基准测试', packageName: 'com.example.bench' });
  const size = await writeZip(file, [...entries, { name: 'assets/bin/Data/data.unity3d', randomBytes: bulkBytes }], {
    beforeCentralDirectory,
  });
  return { file, size };
}

/** A real Info.plist / icon / profile beside one STORED entry of random bytes, sorted as `zip -r` of an export writes it. */
export async function writeBigIpa(dir: string, bulkBytes: number): Promise<{ file: string; size: number }> {
  const file = path.join(dir, 'bench-big.ipa');
  const entries: BenchZipEntry[] = [...sampleIpaEntries(), { name: `${APP}Data/data.unity3d`, randomBytes: bulkBytes }];
  return { file, size: await writeZip(file, entries.sort(byName)) };
}

function filler(min: number, max: number): Buffer {
  return randomBytes(min + Math.floor(Math.random() * (max - min)));
}

/**
 * An ipa laid out like a Unity game build: the sample bundle's metadata among `entryCount` entries, most of
 * them asset bundles under Data/Raw, with managed assemblies, a framework and code signature. Names are
 * sorted, so `embedded.mobileprovision` (lower case) comes after every asset, as in real exports.
 */
export async function writeGameIpa(
  dir: string,
  entryCount: number,
): Promise<{ file: string; size: number; entries: number }> {
  const file = path.join(dir, 'bench-game.ipa');
  const entries: BenchZipEntry[] = [...sampleIpaEntries()];
  const add = (name: string, data?: Buffer) => entries.push(data ? { name, data, method: 'store' } : { name });
  for (const folder of [
    'Data/',
    'Data/Managed/',
    'Data/Raw/',
    'Data/Raw/aa/',
    'Data/Raw/aa/iOS/',
    'Frameworks/',
    'Frameworks/UnityFramework.framework/',
    '_CodeSignature/',
  ])
    add(APP + folder);
  add(`${APP}Frameworks/UnityFramework.framework/UnityFramework`, filler(4096, 8192));
  add(`${APP}Frameworks/UnityFramework.framework/Info.plist`, filler(512, 1024));
  add(`${APP}_CodeSignature/CodeResources`, filler(4096, 8192));
  for (let i = 0; i < 300; i += 1)
    add(`${APP}Data/Managed/Assembly-${String(i).padStart(3, '0')}.dll`, filler(1024, 4096));
  const packs = 200;
  for (let p = 0; p < packs; p += 1) add(`${APP}Data/Raw/aa/iOS/pack_${String(p).padStart(3, '0')}/`);
  for (let i = 0; entries.length < entryCount; i += 1) {
    const pack = String(i % packs).padStart(3, '0');
    add(
      `${APP}Data/Raw/aa/iOS/pack_${pack}/asset_${String(i).padStart(6, '0')}_${'x'.repeat(i % 17)}.bundle`,
      filler(64, 512),
    );
  }
  entries.sort(byName);
  return { file, size: await writeZip(file, entries), entries: entries.length };
}
