import {
  readKeysRecords,
  ResourceIndex,
  ResourceIndexError,
  type ResourceItem,
  ROW_READS_PER_ROW,
} from './hap-resources.ts';

export type ResourceLookup = Pick<ResourceIndex, 'itemsOf'>;

/** The reader of either layout, told apart by the version string (as the packing tool's ResourcesParserFactory does). */
export function openResourceIndex(bytes: Buffer): ResourceLookup {
  return bytes.toString('latin1', 0, 128).includes('RestoolV2') ? new ResourceIndexV2(bytes) : new ResourceIndex(bytes);
}

/**
 * A reader of the newer `resources.index` layout, whose version string starts `RestoolV2` (docs/harmonyos.md), as
 * restool writes it (`SaveToNewResouorceIndex`) and the packing tool reads it (`ResourcesParserV2.java`):
 *
 * - header: 128-byte version, uint32 file length, uint32 configuration count, uint32 offset of the DATA block;
 * - per configuration a `KEYS` record: tag, uint32 configuration id, uint32 key count, (uint32 type, uint32 value)
 *   pairs, the same keys as V1;
 * - right after, the IDSS block: tag, uint32 length, uint32 type count, uint32 id count; per resource type: uint32
 *   type, uint32 length, uint32 count, then per resource uint32 id, uint32 offset of its DATA record, uint32 name
 *   length and the name;
 * - the DATA block: tag, uint32 length, uint32 id count; a record per resource: uint32 id, uint32 length, uint32
 *   value count, then (uint32 configuration id, uint32 offset of the value) pairs;
 * - the values: uint16 length and the bytes (NUL-terminated UTF-8 for strings and media paths).
 *
 * Every count is checked against the bytes it needs, and the rows walked over all lookups are bounded by the file's
 * size as in V1, so a hostile index is refused in time proportional to its size.
 */
const HEADER_BYTES = 140;

export class ResourceIndexV2 {
  /** Configuration id → its locale (`''` base, `zh_CN` …; null for any other qualifier). */
  private readonly locales = new Map<number, string | null>();
  /** Configuration ids in file order: a resource's items come out in this order, as V1's do. */
  private readonly order: number[] = [];
  private readonly idssAt: number;
  private rowBudget: number;

  constructor(private readonly bytes: Buffer) {
    if (bytes.length < HEADER_BYTES) throw new ResourceIndexError('truncated header');
    this.rowBudget = ROW_READS_PER_ROW * Math.ceil(bytes.length / 8);
    const { records, end: at } = readKeysRecords(bytes, HEADER_BYTES);
    for (const { value: configId, locale } of records) {
      if (!this.locales.has(configId)) {
        this.locales.set(configId, locale);
        this.order.push(configId);
      }
    }
    this.need(at, 16);
    this.idssAt = at;
  }

  private need(at: number, length: number): void {
    if (at < 0 || at + length > this.bytes.length) throw new ResourceIndexError('past end');
  }

  private spend(rows: number): void {
    this.rowBudget -= rows;
    if (this.rowBudget < 0) throw new ResourceIndexError('id tables read too often');
  }

  /** The id's type, name and DATA record, walking the IDSS block; null when no type lists it. */
  private find(id: number): { type: number; name: string; record: number } | null {
    const bytes = this.bytes;
    const typeCount = bytes.readUInt32LE(this.idssAt + 8);
    let at = this.idssAt + 16;
    if (typeCount * 12 > bytes.length - at) throw new ResourceIndexError('type count past end');
    for (let group = 0; group < typeCount; group++) {
      this.need(at, 12);
      const type = bytes.readUInt32LE(at);
      const count = bytes.readUInt32LE(at + 8);
      at += 12;
      if (count * 12 > bytes.length - at) throw new ResourceIndexError('id count past end');
      this.spend(count + 1);
      for (let row = 0; row < count; row++) {
        this.need(at, 12);
        const nameLength = bytes.readUInt32LE(at + 8);
        this.need(at + 12, nameLength);
        if (bytes.readUInt32LE(at) === id) {
          const end = nameLength > 0 && bytes[at + 12 + nameLength - 1] === 0 ? nameLength - 1 : nameLength;
          return { type, name: bytes.toString('utf8', at + 12, at + 12 + end), record: bytes.readUInt32LE(at + 4) };
        }
        at += 12 + nameLength;
      }
    }
    return null;
  }

  private valueAt(offset: number): string {
    this.need(offset, 2);
    const length = this.bytes.readUInt16LE(offset);
    this.need(offset + 2, length);
    const end = length > 0 && this.bytes[offset + 2 + length - 1] === 0 ? length - 1 : length;
    return this.bytes.toString('utf8', offset + 2, offset + 2 + end);
  }

  /** Every item with this id, one per configuration that defines it, in the order the KEYS records list them. */
  itemsOf(id: number): ResourceItem[] {
    const found = this.find(id);
    if (!found) return [];
    const bytes = this.bytes;
    this.need(found.record, 12);
    if (bytes.readUInt32LE(found.record) !== id) throw new ResourceIndexError('DATA record of another id');
    const count = bytes.readUInt32LE(found.record + 8);
    const pairsAt = found.record + 12;
    if (count * 8 > bytes.length - pairsAt) throw new ResourceIndexError('value count past end');
    this.spend(count + this.order.length);
    const values = new Map<number, string>();
    for (let row = 0; row < count; row++) {
      const configId = bytes.readUInt32LE(pairsAt + row * 8);
      if (this.locales.has(configId) && !values.has(configId))
        values.set(configId, this.valueAt(bytes.readUInt32LE(pairsAt + row * 8 + 4)));
    }
    return this.order.flatMap((configId) => {
      const value = values.get(configId);
      return value === undefined
        ? []
        : [{ type: found.type, value, name: found.name, locale: this.locales.get(configId) ?? null }];
    });
  }
}
