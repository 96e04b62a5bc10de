/**
 * A reader of HarmonyOS `resources.index` as restool writes it (the "V1" layout, docs/harmonyos.md; the
 * `RestoolV2` layout is hap-resources-v2.ts): a 128-byte
 * version string, the file size and a count of configurations; one `KEYS` record per configuration (its offset,
 * its qualifier keys); at each offset an `IDSS` table of (resource id, item offset); each item is size, type, id,
 * a length-prefixed value and a length-prefixed name, both NUL-terminated UTF-8. Every count is checked against
 * the bytes it would need, so a hostile index is refused in time proportional to its size.
 */

const HEADER_BYTES = 136;
const VERSION_BYTES = 128;
/** Key types of a configuration's qualifiers (restool's KeyType). */
const KEY_LANGUAGE = 0;
const KEY_REGION = 1;
const KEY_SCRIPT = 5;
/** Resource types whose values the inspector reads. */
export const RES_STRING = 9;
export const RES_MEDIA = 19;

export class ResourceIndexError extends Error {}

export interface ResourceConfig {
  /** `''` for the base configuration, `zh_CN`, `zh_Hans_CN`, `en` … for language ones; null for any other qualifier (dark, tablet, dpi). */
  locale: string | null;
  /** Offset of its IDSS table. */
  offset: number;
}

export interface ResourceItem {
  type: number;
  value: string;
  name: string;
  /** The configuration's locale, as in ResourceConfig. */
  locale: string | null;
}

/** `0x7a68` → `zh`: restool packs a language, script or region into an integer, first letter highest. */
function unpackAscii(value: number): string {
  let text = '';
  for (let rest = value >>> 0; rest > 0; rest = Math.floor(rest / 256)) text = String.fromCharCode(rest & 0xff) + text;
  return text;
}

function cString(bytes: Buffer, start: number, length: number): string {
  const end = length > 0 && bytes[start + length - 1] === 0 ? start + length - 1 : start + length;
  return bytes.toString('utf8', start, end);
}

/**
 * Id table rows read over all lookups, per 8 bytes of index: tables of an honest file do not overlap, so one lookup
 * reads each row at most once, and the inspector makes a handful. A file whose configurations all point at one
 * huge table stops here instead of costing configurations × rows.
 */
export const ROW_READS_PER_ROW = 16;

/** A configuration's locale from its (type, value) keys: language, script and region joined by `_`; null for any other qualifier. */
function localeOfKeys(keys: readonly [number, number][]): string | null {
  const parts: string[] = [];
  for (const [type, value] of keys) {
    if (type === KEY_LANGUAGE || type === KEY_REGION || type === KEY_SCRIPT) parts.push(unpackAscii(value));
    else return null;
  }
  return parts.join('_');
}

/**
 * The `KEYS` records after a header (both layouts): tag, uint32 (V1: the IDSS table's offset; V2: the configuration
 * id), uint32 key count, (type, value) pairs. Answers each record's uint32 and locale, and where the records end.
 */
export function readKeysRecords(
  bytes: Buffer,
  start: number,
): { records: { value: number; locale: string | null }[]; end: number } {
  const count = bytes.readUInt32LE(132);
  let at = start;
  // Each KEYS record takes at least 12 bytes: a count past that is a lie.
  if (count * 12 > bytes.length - at) throw new ResourceIndexError('config count past end');
  const records: { value: number; locale: string | null }[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 12 > bytes.length) throw new ResourceIndexError('past end');
    if (bytes.toString('latin1', at, at + 4) !== 'KEYS') throw new ResourceIndexError('no KEYS tag');
    const value = bytes.readUInt32LE(at + 4);
    const keyCount = bytes.readUInt32LE(at + 8);
    at += 12;
    if (keyCount * 8 > bytes.length - at) throw new ResourceIndexError('key count past end');
    const keys: [number, number][] = [];
    for (let key = 0; key < keyCount; key++, at += 8) keys.push([bytes.readUInt32LE(at), bytes.readUInt32LE(at + 4)]);
    records.push({ value, locale: localeOfKeys(keys) });
  }
  return { records, end: at };
}

export class ResourceIndex {
  readonly configs: ResourceConfig[] = [];
  private rowBudget: number;

  constructor(private readonly bytes: Buffer) {
    if (bytes.length < HEADER_BYTES) throw new ResourceIndexError('truncated header');
    this.rowBudget = ROW_READS_PER_ROW * Math.ceil(bytes.length / 8);
    if (bytes.toString('latin1', 0, VERSION_BYTES).includes('RestoolV2')) throw new ResourceIndexError('V2 layout');
    for (const record of readKeysRecords(bytes, HEADER_BYTES).records)
      this.configs.push({ locale: record.locale, offset: record.value });
  }

  private need(at: number, length: number): void {
    if (at < 0 || at + length > this.bytes.length) throw new ResourceIndexError('past end');
  }

  /** Every item with this id, one per configuration that defines it (base first when the file lists it first). */
  itemsOf(id: number): ResourceItem[] {
    const items: ResourceItem[] = [];
    for (const config of this.configs) {
      const offset = this.lookup(config.offset, id);
      if (offset !== null) items.push({ ...this.itemAt(offset), locale: config.locale });
    }
    return items;
  }

  private lookup(tableOffset: number, id: number): number | null {
    const bytes = this.bytes;
    this.need(tableOffset, 8);
    if (bytes.toString('latin1', tableOffset, tableOffset + 4) !== 'IDSS') throw new ResourceIndexError('no IDSS tag');
    const count = bytes.readUInt32LE(tableOffset + 4);
    if (count * 8 > bytes.length - tableOffset - 8) throw new ResourceIndexError('id count past end');
    this.rowBudget -= count;
    if (this.rowBudget < 0) throw new ResourceIndexError('id tables read too often');
    for (let index = 0, at = tableOffset + 8; index < count; index++, at += 8) {
      if (bytes.readUInt32LE(at) === id) return bytes.readUInt32LE(at + 4);
    }
    return null;
  }

  private itemAt(offset: number): Omit<ResourceItem, 'locale'> {
    const bytes = this.bytes;
    this.need(offset, 14);
    const type = bytes.readUInt32LE(offset + 4);
    const valueLength = bytes.readUInt16LE(offset + 12);
    this.need(offset + 14, valueLength + 2);
    const value = cString(bytes, offset + 14, valueLength);
    const nameAt = offset + 14 + valueLength;
    const nameLength = bytes.readUInt16LE(nameAt);
    this.need(nameAt + 2, nameLength);
    return { type, value, name: cString(bytes, nameAt + 2, nameLength) };
  }
}

/** A `$string:16777216` / `$media:16777218` reference by number, as module.json and layered icons write them. */
export function numericReference(reference: unknown): number | null {
  const match = typeof reference === 'string' ? /^\$[a-z]+:(\d{1,10})$/.exec(reference) : null;
  return match ? Number(match[1]) : null;
}
