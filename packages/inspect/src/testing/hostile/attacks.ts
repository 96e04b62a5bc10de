import { sharedNestingInfoPlist, writeBplist, type BplistObject } from '../bplist-writer.ts';
import { ipaEntries } from '../packages.ts';
import { makeIdentity, signCms, type TestIdentity } from '../signing.ts';
import { buildZip } from '../zip-writer.ts';

/** The attacks of issue 15, as measured on the unbounded readers; regression inputs for the hostile-input tests. */

const INFO = {
  CFBundleIdentifier: 'com.example.hostile',
  CFBundleName: 'Hostile',
  CFBundleShortVersionString: '1.0',
  CFBundleVersion: '1',
};

let device: TestIdentity | undefined;

/**
 * A device answer (CMS SignedData around a binary plist) whose plist nests one shared array `levels` deep:
 * with 27 levels about 1.5 KB, which held the server 18.9 s as an anonymous POST to the enroll callback.
 */
export function sharedNestingDeviceAnswer(
  levels: number,
  fields: Record<string, string> = { UDID: '00008110-000A1B2C3D4E5F99' },
): Buffer {
  device ??= makeIdentity('Fake iPhone Device Identity', '0e');
  return signCms(sharedNestingInfoPlist(levels, fields), device);
}

/** An ipa whose binary Info.plist nests one shared array `levels` deep (24: 43 s blocked; 26: out of memory). */
export function sharedNestingIpa(levels: number): Buffer {
  return buildZip(ipaEntries('Hostile', sharedNestingInfoPlist(levels, INFO)));
}

/** An ipa whose XML Info.plist nests `depth` arrays (xmldom built the whole tree: 39 s, +850 MB). */
export function deepXmlIpa(depth: number): Buffer {
  const fields = Object.entries(INFO)
    .map(([key, value]) => `<key>${key}</key><string>${value}</string>`)
    .join('');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>${fields}<key>Deep</key>${'<array>'.repeat(depth)}${'</array>'.repeat(depth)}</dict>\n</plist>\n`;
  return buildZip(ipaEntries('Hostile', Buffer.from(xml)));
}

/**
 * An ipa whose binary Info.plist holds `count` distinct keys: within every limit (one value per few bytes),
 * yet costly: ~1 s and ~100 MB of heap to read 1,000,000. For the worker's time and memory limits.
 */
export function heavyInfoPlistIpa(count: number): Buffer {
  const objects: BplistObject[] = [{ dict: [] }];
  const entries = (objects[0] as { dict: Array<[number, number]> }).dict;
  for (const [key, value] of Object.entries(INFO)) {
    objects.push({ string: key }, { string: value });
    entries.push([objects.length - 2, objects.length - 1]);
  }
  objects.push({ bool: true });
  const value = objects.length - 1;
  for (let i = 0; i < count; i += 1) {
    objects.push({ string: `k${i}` });
    entries.push([objects.length - 1, value]);
  }
  return buildZip(ipaEntries('Heavy', writeBplist(objects)));
}
