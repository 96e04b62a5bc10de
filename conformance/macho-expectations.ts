/** The signed binaries inside the fixture ipas, as fixtures/SOURCES.md describes them (architectures, CodeDirectories, signer). */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ZipIndex } from '@release/inspect/zip-index.ts';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
export const fixturesDir = resolve(repoRoot, process.env.FIXTURES_DIR ?? '../shared/fixtures');

export interface BinaryExpectation {
  path: string;
  archs: string[];
  /** Per slice: CodeDirectory slot and hash type (1 SHA-1, 2 SHA-256). */
  directories: Array<[number, number]>;
  identifier: string;
  teamId: string;
  signer: string;
  /** The DER entitlements form: Xcode 12's bare SET, the current [APPLICATION 16] document, or none. */
  derEntitlements: 'xcode12' | 'current' | null;
}

export const expectations: Record<string, BinaryExpectation[]> = {
  'appinfo-iphone.ipa': [
    {
      path: 'Payload/AppInfoDemo.app/AppInfoDemo',
      archs: ['armv7', 'arm64'],
      directories: [
        [0, 1],
        [0x1000, 2],
      ],
      identifier: 'com.icyleaf.AppInfoDemo',
      teamId: '5PJA6N5A3B',
      signer: 'iPhone Developer: Yi Xiao (54P9L43M84)',
      derEntitlements: null,
    },
  ],
  'appinfo-ipad.ipa': [
    {
      path: 'Payload/bundle.app/bundle',
      archs: ['armv7', 'arm64'],
      directories: [
        [0, 1],
        [0x1000, 2],
      ],
      identifier: 'com.icyleaf.bundle',
      teamId: '5PJA6N5A3B',
      signer: 'iPhone Distribution: QYER Inc (5PJA6N5A3B)',
      derEntitlements: null,
    },
  ],
  'appinfo-embedded.ipa': [
    {
      path: 'Payload/Demo.app/Demo',
      archs: ['arm64'],
      directories: [[0, 2]],
      identifier: 'com.icyleaf.test.Demo',
      teamId: '72LA85G59H',
      signer: 'iPhone Distribution: Niceliving Beijing Technology Co. Ltd.',
      derEntitlements: 'xcode12',
    },
    {
      path: 'Payload/Demo.app/PlugIns/Notification.appex/Notification',
      archs: ['arm64'],
      directories: [[0, 2]],
      identifier: 'com.icyleaf.test.Demo.Notification',
      teamId: '72LA85G59H',
      signer: 'iPhone Distribution: Niceliving Beijing Technology Co. Ltd.',
      derEntitlements: 'xcode12',
    },
  ],
  'appinfo-apple-tv.ipa': [
    {
      path: 'Payload/BilibiliLive.app/BilibiliLive',
      archs: ['arm64'],
      directories: [[0, 2]],
      identifier: 'com.etan.tv.BilibiliLive.tvOS',
      teamId: '3WJ3AZZMPP',
      signer: 'Apple Development: icyleaf@ews.im (AR9Y2A54NC)',
      derEntitlements: 'current',
    },
  ],
  'isign-Test.ipa': [
    {
      path: 'Payload/IsignTestApp.app/IsignTestApp',
      archs: ['arm64'],
      directories: [[0, 2]],
      identifier: 'net.neilk.IsignTestApp',
      teamId: 'L37S4Z6BE9',
      signer: 'Apple Development: Neil Kandalgaonkar (PJ5C3PEW8Z)',
      derEntitlements: null,
    },
  ],
  'isign-isignTestApp.ipa': [
    {
      path: 'Payload/IsignTestApp.app/IsignTestApp',
      archs: ['arm64'],
      directories: [[0, 2]],
      identifier: 'net.neilk.IsignTestApp',
      teamId: 'L37S4Z6BE9',
      signer: 'Apple Development: Neil Kandalgaonkar (PJ5C3PEW8Z)',
      derEntitlements: null,
    },
  ],
  'isign-isignFrameworksTestApp.ipa': [
    {
      path: 'Payload/isignFrameworksTestApp.app/isignFrameworksTestApp',
      archs: ['arm64'],
      directories: [[0, 2]],
      identifier: 'net.neilk.isignFrameworksTestApp',
      teamId: 'L37S4Z6BE9',
      signer: 'Apple Development: Neil Kandalgaonkar (PJ5C3PEW8Z)',
      derEntitlements: null,
    },
    {
      path: 'Payload/isignFrameworksTestApp.app/Frameworks/FontAwesome_swift.framework/FontAwesome_swift',
      archs: ['arm64'],
      directories: [
        [0, 1],
        [0x1000, 2],
      ],
      identifier: 'org.cocoapods.FontAwesome-swift',
      teamId: 'L37S4Z6BE9',
      signer: 'Apple Development: Neil Kandalgaonkar (PJ5C3PEW8Z)',
      derEntitlements: null,
    },
  ],
};

export async function optional(zip: ZipIndex, name: string): Promise<Buffer | null> {
  return zip.entries.has(name) ? zip.readEntry(name) : null;
}
