import { deviceExportFormats } from '@release/contract';
import { formatDeviceFile, parseDeviceFile } from '../modules/devices/device-file.ts';
import { textBoundaries } from './boundaries.ts';
import { input, type Campaign, type FuzzInput } from './campaign.ts';
import { asBuiltAndCut, mutationsOf } from './mutate.ts';

/** Device list imports (`/api/udid/import`, ≤ 1 MB): Apple's tab-separated text, CSV and `.deviceids` plists. */

const MiB = 1024 * 1024;

function hostileDeviceFiles(): FuzzInput[] {
  const text = (value: string) => Buffer.from(value.slice(0, MiB));
  const udid = (i: number) => `00008110-${i.toString(16).padStart(16, '0').toUpperCase()}`;
  return [
    input('25,000 tab-separated lines (1 MiB)', () =>
      text(Array.from({ length: 25_000 }, (_, i) => `${udid(i)}\tPhone ${i}\tios`).join('\n')),
    ),
    input('the same UDID 25,000 times', () =>
      text(Array.from({ length: 25_000 }, () => `${udid(1)}\tPhone\tios`).join('\n')),
    ),
    input('CSV of one unclosed quote and 1 MiB behind it', () => text(`"${'a,'.repeat(MiB / 2)}`)),
    input('CSV of 100,000 columns on one line', () => text(`${udid(1)},${'x,'.repeat(100_000)}`)),
    input('a line of 1 MiB without a tab or comma', () => text('u'.repeat(MiB))),
    input('1 MiB of line breaks', () => text('\r\n'.repeat(MiB / 2))),
    input('a .deviceids plist of 20,000 entries', () =>
      text(
        `<?xml version="1.0"?><plist><dict><key>Device UDIDs</key><array>${Array.from({ length: 20_000 }, (_, i) => `<dict><key>deviceIdentifier</key><string>${udid(i)}</string></dict>`).join('')}</array></dict></plist>`,
      ),
    ),
    input('a .deviceids plist nested 100,000 deep', () =>
      text(
        `<?xml version="1.0"?><plist><dict><key>Device UDIDs</key>${'<array>'.repeat(100_000)}${'</array>'.repeat(100_000)}</dict></plist>`,
      ),
    ),
  ];
}

export const deviceFileCampaign: Campaign = {
  name: 'device list import',
  inputs(random) {
    const devices = [
      { udid: '00008110-000A1B2C3D4E5F99', deviceName: '测试机 1', platform: 'ios' as const },
      { udid: '00008030-001A2B3C4D5E6F70', deviceName: 'iPad, "Pro"', platform: 'ios' as const },
      { udid: '00006000-001234567890801E', deviceName: 'MacBook', platform: 'mac' as const },
    ];
    const samples = deviceExportFormats.map(
      (format) => [format, Buffer.from(formatDeviceFile(devices, format).body)] as const,
    );
    return [
      ...samples.flatMap(([format, bytes]) => asBuiltAndCut(format, bytes, (file) => textBoundaries(file, '<>\t,"\n'))),
      ...hostileDeviceFiles(),
      ...samples.flatMap(([format, bytes]) => mutationsOf(format, bytes, 100, random)),
    ];
  },
  // Every fault is an answer: null (not a device list) or errors per line; nothing may be thrown.
  run: (bytes) => parseDeviceFile(bytes),
  refuses: () => false,
};
