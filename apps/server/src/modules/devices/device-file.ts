import { lazyRequire } from '@release/inspect/lazy-require.ts';
import { build as buildPlist } from 'plist';
import {
  DEVICE_NAME_MAX_LENGTH,
  DeviceMessages,
  devicePlatforms,
  normalizeUdid,
  type DeviceExportFormat,
  type DeviceImportError,
  type DevicePlatform,
} from '@release/contract';
import { isPlistDict, parsePlistDict, plistString } from '@release/inspect/plist.ts';

/** The CSV parser and writer load with the first device file read or written. */
const csvParse = lazyRequire<typeof import('csv-parse/sync')>('csv-parse/sync', import.meta.url);
const csvStringify = lazyRequire<typeof import('csv-stringify/sync')>('csv-stringify/sync', import.meta.url);

/** One device line of an import file, checked and in our spelling. */
export interface DeviceLine {
  line: number;
  udid: string;
  deviceName: string;
  platform: DevicePlatform;
}

export interface ParsedDeviceFile {
  devices: DeviceLine[];
  errors: DeviceImportError[];
}

interface RawLine {
  line: number;
  fields: string[];
}

const APPLE_HEADER = /^device id$/i;
const CSV_HEADER = /^(device id|udid|设备\s*id|设备udid)$/i;
const BINARY_PLIST = Buffer.from('bplist00', 'latin1');

function checkLine(raw: RawLine, seen: Map<string, number>): DeviceLine | DeviceImportError {
  const { line, fields } = raw;
  if (fields.length < 2 || fields.length > 3) return { line, message: DeviceMessages.lineFields };
  const [udidField = '', nameField = '', platformField = ''] = fields.map((f) => f.trim());
  const platform = (platformField === '' ? 'ios' : platformField.toLowerCase()) as DevicePlatform;
  if (!devicePlatforms.includes(platform)) return { line, message: DeviceMessages.linePlatform };
  const udid = normalizeUdid(udidField, platform);
  if (!udid) return { line, message: `${DeviceMessages.udidInvalid(platform)}：${udidField || '（空）'}` };
  if (nameField === '' || [...nameField].length > DEVICE_NAME_MAX_LENGTH)
    return { line, message: DeviceMessages.lineName };
  const first = seen.get(udid);
  if (first !== undefined) return { line, message: DeviceMessages.lineDuplicate(first) };
  seen.set(udid, line);
  return { line, udid, deviceName: nameField, platform };
}

function checkLines(lines: RawLine[]): ParsedDeviceFile {
  const seen = new Map<string, number>();
  const devices: DeviceLine[] = [];
  const errors: DeviceImportError[] = [];
  for (const raw of lines) {
    const checked = checkLine(raw, seen);
    if ('message' in checked) errors.push(checked);
    else devices.push(checked);
  }
  return { devices, errors };
}

/** Apple's "Register Multiple Devices" text: tab-separated, an optional `Device ID…` header. */
function appleTextLines(text: string): RawLine[] {
  const lines: RawLine[] = [];
  text.split(/\r\n|\n|\r/).forEach((content, index) => {
    if (content.trim() === '') return;
    lines.push({ line: index + 1, fields: content.split('\t') });
  });
  if (APPLE_HEADER.test(lines[0]?.fields[0]?.trim() ?? '')) lines.shift();
  return lines;
}

function csvLines(text: string): RawLine[] | DeviceImportError {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = csvParse().parse(text, {
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      bom: true,
    }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { line, message: 'CSV 格式错误（引号未闭合或多余）' };
  }
  const lines = records.map(({ record, info }) => ({ line: info.lines, fields: record }));
  if (lines.length > 0 && CSV_HEADER.test(lines[0]?.fields[0]?.trim() ?? '')) lines.shift();
  return lines;
}

/** `.deviceids` (XML or binary plist): `Device UDIDs` → [{deviceIdentifier, deviceName, devicePlatform}]. */
function plistLines(bytes: Buffer): RawLine[] | null {
  const dict = parsePlistDict(bytes);
  const list = dict?.['Device UDIDs'];
  if (!Array.isArray(list)) return null;
  const isBinary = bytes.subarray(0, 8).equals(BINARY_PLIST);
  const text = isBinary ? '' : bytes.toString('utf8');
  // XML: report the line of each entry's deviceIdentifier; binary plists have no lines, so the entry number.
  const keyLines: number[] = [];
  if (!isBinary) {
    text.split(/\r\n|\n|\r/).forEach((line, index) => {
      if (line.includes('<key>deviceIdentifier</key>')) keyLines.push(index + 1);
    });
  }
  return list.map((item, index) => {
    const entry = isPlistDict(item) ? item : {};
    const fields = [
      plistString(entry, 'deviceIdentifier') ?? '',
      plistString(entry, 'deviceName') ?? '',
      plistString(entry, 'devicePlatform') ?? '',
    ];
    return { line: keyLines[index] ?? index + 1, fields };
  });
}

/**
 * Reads a device list in Apple's formats (tab-separated `.txt`, `.deviceids` plist) or CSV. Every bad
 * line is reported with its line number: malformed UDIDs, wrong columns, names, platforms, and UDIDs
 * repeated within the file. Returns null when the file is none of these.
 */
export function parseDeviceFile(bytes: Buffer): ParsedDeviceFile | null {
  const head = bytes
    .subarray(0, 64)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (
    bytes.subarray(0, 8).equals(BINARY_PLIST) ||
    head.startsWith('<?xml') ||
    head.startsWith('<plist') ||
    head.startsWith('<!DOCTYPE')
  ) {
    const lines = plistLines(bytes);
    return lines ? checkLines(lines) : null;
  }
  if (bytes.includes(0)) return null;
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r\n|\n|\r/).find((line) => line.trim() !== '') ?? '';
  if (firstLine.includes('\t')) return checkLines(appleTextLines(text));
  const lines = csvLines(text);
  if (!Array.isArray(lines)) return { devices: [], errors: [lines] };
  return checkLines(lines);
}

export interface ExportDevice {
  udid: string;
  deviceName: string;
  platform: DevicePlatform;
}

const oneLine = (value: string) => value.replace(/[\t\r\n]+/g, ' ');

/** The file `/api/udid/export` answers: Apple's text (the portal's upload format), CSV or a `.deviceids` plist. */
export function formatDeviceFile(
  devices: ExportDevice[],
  format: DeviceExportFormat,
): { body: string; contentType: string; extension: string } {
  switch (format) {
    case 'txt':
      return {
        body: `${[
          'Device ID\tDevice Name\tDevice Platform',
          ...devices.map((d) => `${d.udid}\t${oneLine(d.deviceName)}\t${d.platform}`),
        ].join('\n')}\n`,
        contentType: 'text/plain; charset=utf-8',
        extension: 'txt',
      };
    case 'csv':
      // A BOM so that spreadsheet programs read Chinese device names as UTF-8.
      return {
        body:
          '\uFEFF' +
          csvStringify().stringify([
            ['Device ID', 'Device Name', 'Device Platform'],
            ...devices.map((d) => [d.udid, d.deviceName, d.platform]),
          ]),
        contentType: 'text/csv; charset=utf-8',
        extension: 'csv',
      };
    case 'deviceids':
      return {
        body: buildPlist({
          'Device UDIDs': devices.map((d) => ({
            deviceIdentifier: d.udid,
            deviceName: d.deviceName,
            devicePlatform: d.platform,
          })),
        }),
        contentType: 'application/xml; charset=utf-8',
        extension: 'deviceids',
      };
  }
}
