import { chunk, resValue, StringTable, stringPool } from './res-writer.ts';

/** Writes a minimal resources.arsc: one package 0x7f, simple (non-complex) entries, per-config values. */
export interface ArscConfig {
  language?: string;
  region?: string;
  density?: number;
}

export type ArscValue = { string: string } | { ref: string } | { color: number } | { int: number };

export interface ArscEntry {
  /** `string/app_name`, `mipmap/ic_launcher`... */
  key: string;
  values: { config?: ArscConfig; value: ArscValue }[];
}

export interface BuiltArsc {
  bytes: Buffer;
  /** Resource id of every key, e.g. `ids['string/app_name'] === 0x7f010000`. */
  ids: Record<string, number>;
}

const CONFIG_SIZE = 64;

function configBytes(config: ArscConfig = {}): Buffer {
  const bytes = Buffer.alloc(CONFIG_SIZE);
  bytes.writeUInt32LE(CONFIG_SIZE, 0);
  if (config.language) bytes.write(config.language, 8, 'latin1');
  if (config.region) bytes.write(config.region, 10, 'latin1');
  bytes.writeUInt16LE(config.density ?? 0, 14);
  return bytes;
}

function configKey(config: ArscConfig = {}): string {
  return `${config.language ?? ''}-${config.region ?? ''}-${config.density ?? 0}`;
}

export function buildArsc(entries: ArscEntry[], options: { utf8?: boolean } = {}): BuiltArsc {
  const typeNames: string[] = [];
  const keysByType = new Map<string, string[]>();
  for (const entry of entries) {
    const [type = '', name = ''] = entry.key.split('/');
    if (!typeNames.includes(type)) typeNames.push(type);
    const names = keysByType.get(type) ?? [];
    names.push(name);
    keysByType.set(type, names);
  }
  const ids: Record<string, number> = {};
  for (const [typeIndex, type] of typeNames.entries()) {
    (keysByType.get(type) ?? []).forEach((name, entryIndex) => {
      ids[`${type}/${name}`] = (0x7f << 24) | ((typeIndex + 1) << 16) | entryIndex;
    });
  }
  const values = new StringTable();
  const keyStrings = new StringTable();
  const encodeValue = (value: ArscValue): Buffer => {
    if ('string' in value) return resValue(0x03, values.index(value.string));
    if ('ref' in value) return resValue(0x01, ids[value.ref] ?? 0);
    if ('color' in value) return resValue(0x1c, value.color);
    return resValue(0x10, value.int);
  };
  const typeChunks: Buffer[] = [];
  for (const [typeIndex, type] of typeNames.entries()) {
    const typeEntries = entries.filter((entry) => entry.key.startsWith(`${type}/`));
    const specHeader = Buffer.alloc(8);
    specHeader.writeUInt8(typeIndex + 1, 0);
    specHeader.writeUInt32LE(typeEntries.length, 4);
    typeChunks.push(chunk(0x0202, specHeader, Buffer.alloc(typeEntries.length * 4)));
    const configs = new Map<string, ArscConfig>();
    for (const entry of typeEntries)
      for (const item of entry.values) configs.set(configKey(item.config), item.config ?? {});
    for (const [key, config] of configs) {
      const offsets = Buffer.alloc(typeEntries.length * 4, 0xff);
      const data: Buffer[] = [];
      let at = 0;
      typeEntries.forEach((entry, index) => {
        const item = entry.values.find((candidate) => configKey(candidate.config) === key);
        if (!item) return;
        const head = Buffer.alloc(8);
        head.writeUInt16LE(8, 0);
        head.writeUInt32LE(keyStrings.index(entry.key.split('/')[1] ?? ''), 4);
        const bytes = Buffer.concat([head, encodeValue(item.value)]);
        offsets.writeUInt32LE(at, index * 4);
        data.push(bytes);
        at += bytes.length;
      });
      const header = Buffer.alloc(12);
      header.writeUInt8(typeIndex + 1, 0);
      header.writeUInt32LE(typeEntries.length, 4);
      header.writeUInt32LE(8 + 12 + CONFIG_SIZE + offsets.length, 8);
      typeChunks.push(chunk(0x0201, Buffer.concat([header, configBytes(config)]), Buffer.concat([offsets, ...data])));
    }
  }
  const typePool = stringPool(typeNames, options.utf8 ?? false);
  const keyPool = stringPool(keyStrings.strings, options.utf8 ?? false);
  const packageHeader = Buffer.alloc(280);
  packageHeader.writeUInt32LE(0x7f, 0);
  packageHeader.write('com.example.test', 4, 'utf16le');
  packageHeader.writeUInt32LE(288, 260); // type strings, from the package start
  packageHeader.writeUInt32LE(typeNames.length, 264);
  packageHeader.writeUInt32LE(288 + typePool.length, 268); // key strings
  packageHeader.writeUInt32LE(keyStrings.strings.length, 272);
  const packageChunk = chunk(0x0200, packageHeader, Buffer.concat([typePool, keyPool, ...typeChunks]));
  const tableHeader = Buffer.alloc(4);
  tableHeader.writeUInt32LE(1, 0);
  const bytes = chunk(
    0x0002,
    tableHeader,
    Buffer.concat([stringPool(values.strings, options.utf8 ?? false), packageChunk]),
  );
  return { bytes, ids };
}
