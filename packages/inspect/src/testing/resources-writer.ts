/** restool `resources.index` files for tests, in both layouts the inspector reads (hap-resources*.ts). */

/** restool's resource types and configuration keys used here. */
export const RES_TYPE = { string: 9, media: 19 } as const;
const KEY_LANGUAGE = 0;
const KEY_REGION = 1;
const KEY_NIGHT_MODE = 6;

export interface ResourceSpec {
  id: number;
  type: number;
  name: string;
  value: string;
}

export interface ResourceConfigSpec {
  /** `''` (base), `zh_CN`, `en`, or `dark` (a non-language qualifier). */
  locale: string;
  items: ResourceSpec[];
}

/** `zh` → ('z' << 8) | 'h', restool's packing of a language or region. */
function packAscii(text: string): number {
  let value = 0;
  for (const char of text) value = value * 256 + char.charCodeAt(0);
  return value;
}

function keysOf(locale: string): [number, number][] {
  if (locale === '') return [];
  if (locale === 'dark') return [[KEY_NIGHT_MODE, 0]];
  const [language = '', region] = locale.split('_');
  return region
    ? [
        [KEY_LANGUAGE, packAscii(language)],
        [KEY_REGION, packAscii(region)],
      ]
    : [[KEY_LANGUAGE, packAscii(language)]];
}

function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]);
  const length = Buffer.alloc(2);
  length.writeUInt16LE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A V1 resources.index: header, KEYS records, then per configuration an IDSS table followed by its items. */
export function buildResourcesIndex(configs: ResourceConfigSpec[]): Buffer {
  const header = Buffer.alloc(136);
  header.write('Restool 5.012', 0, 'latin1');
  const keysRecords = configs.map((config) => Buffer.alloc(12 + keysOf(config.locale).length * 8));
  let offset = header.length + keysRecords.reduce((sum, record) => sum + record.length, 0);
  const tables: Buffer[] = [];
  configs.forEach((config, index) => {
    const record = keysRecords[index] as Buffer;
    record.write('KEYS', 0, 'latin1');
    record.writeUInt32LE(offset, 4);
    const keys = keysOf(config.locale);
    record.writeUInt32LE(keys.length, 8);
    keys.forEach(([type, value], key) => {
      record.writeUInt32LE(type, 12 + key * 8);
      record.writeUInt32LE(value, 16 + key * 8);
    });
    const table = Buffer.alloc(8 + config.items.length * 8);
    table.write('IDSS', 0, 'latin1');
    table.writeUInt32LE(config.items.length, 4);
    let itemOffset = offset + table.length;
    const items = config.items.map((item, row) => {
      const body = Buffer.concat([lengthPrefixed(item.value), lengthPrefixed(item.name)]);
      const head = Buffer.alloc(12);
      head.writeUInt32LE(12 + body.length, 0);
      head.writeUInt32LE(item.type, 4);
      head.writeUInt32LE(item.id, 8);
      table.writeUInt32LE(item.id, 8 + row * 8);
      table.writeUInt32LE(itemOffset, 12 + row * 8);
      itemOffset += 12 + body.length;
      return Buffer.concat([head, body]);
    });
    tables.push(table, ...items);
    offset = itemOffset;
  });
  const index = Buffer.concat([header, ...keysRecords, ...tables]);
  index.writeUInt32LE(index.length, 128);
  index.writeUInt32LE(configs.length, 132);
  return index;
}

const u32 = (...values: number[]) => {
  const bytes = Buffer.alloc(values.length * 4);
  for (const [index, value] of values.entries()) bytes.writeUInt32LE(value >>> 0, index * 4);
  return bytes;
};

/**
 * A `RestoolV2` resources.index laid out as restool's SaveToNewResouorceIndex writes it (hap-resources-v2.ts): header,
 * KEYS records (configuration id = its index), the IDSS block (resources by type: id, DATA record offset, name), the
 * DATA block (per resource its (configuration, value offset) pairs) and the values (uint16 length, NUL-terminated).
 */
export function buildResourcesIndexV2(configs: ResourceConfigSpec[], version = 'RestoolV2 5.1.0.001'): Buffer {
  const keys = configs.map((config, configId) => {
    const pairs = keysOf(config.locale);
    return Buffer.concat([Buffer.from('KEYS', 'latin1'), u32(configId, pairs.length, ...pairs.flat())]);
  });
  const resources = new Map<number, { type: number; name: string; values: [number, string][] }>();
  configs.forEach((config, configId) => {
    for (const item of config.items) {
      const resource = resources.get(item.id) ?? { type: item.type, name: item.name, values: [] };
      resource.values.push([configId, item.value]);
      resources.set(item.id, resource);
    }
  });
  const types = [...new Set([...resources.values()].map((resource) => resource.type))];
  const headerLength = 140 + keys.reduce((sum, record) => sum + record.length, 0);
  const idssLength =
    16 + types.length * 12 + [...resources.values()].reduce((sum, r) => sum + 12 + Buffer.byteLength(r.name), 0);
  const dataAt = headerLength + idssLength;
  const dataLength = 12 + [...resources.values()].reduce((sum, r) => sum + 12 + r.values.length * 8, 0);
  let poolAt = dataAt + dataLength;
  const pool: Buffer[] = [];
  const records: Buffer[] = [];
  const recordAt = new Map<number, number>();
  let at = dataAt + 12;
  for (const [id, resource] of resources) {
    recordAt.set(id, at);
    const pairs: number[] = [];
    for (const [configId, value] of resource.values) {
      const bytes = Buffer.concat([Buffer.from(value, 'utf8'), Buffer.from([0])]);
      const length = Buffer.alloc(2);
      length.writeUInt16LE(bytes.length);
      pairs.push(configId, poolAt);
      pool.push(length, bytes);
      poolAt += 2 + bytes.length;
    }
    records.push(u32(id, 12 + pairs.length * 4, resource.values.length, ...pairs));
    at += 12 + pairs.length * 4;
  }
  const idss = [Buffer.from('IDSS', 'latin1'), u32(idssLength, types.length, resources.size)];
  for (const type of types) {
    const ofType = [...resources].filter(([, resource]) => resource.type === type);
    const rows = ofType.map(([id, resource]) =>
      Buffer.concat([u32(id, recordAt.get(id) ?? 0, Buffer.byteLength(resource.name)), Buffer.from(resource.name)]),
    );
    idss.push(u32(type, 12 + rows.reduce((sum, row) => sum + row.length, 0), ofType.length), ...rows);
  }
  const header = Buffer.alloc(140);
  header.write(version, 0, 'latin1');
  header.writeUInt32LE(poolAt, 128);
  header.writeUInt32LE(configs.length, 132);
  header.writeUInt32LE(dataAt, 136);
  const data = [Buffer.from('DATA', 'latin1'), u32(dataLength, resources.size), ...records];
  return Buffer.concat([header, ...keys, ...idss, ...data, ...pool]);
}
