import {
  ChunkType,
  isReferenceType,
  readChunkHeader,
  ResourceFormatError,
  StringPool,
  ValueType,
  type TypedValue,
} from './res-string-pool.ts';

/** The qualifiers we choose by: locale for labels, density for icons. */
export interface ResourceConfig {
  language: string;
  region: string;
  density: number;
  sdkVersion: number;
}

export const Density = { default: 0, mdpi: 160, any: 0xfffe, none: 0xffff } as const;

export interface ResourceCandidate {
  config: ResourceConfig;
  value: TypedValue;
  /** For string values: the text (a file path for drawables). */
  text: string | null;
}

interface TypeChunk {
  entryCount: number;
  offsetsAt: number;
  entriesAt: number;
  end: number;
  isSparse: boolean;
  isOffset16: boolean;
  config: ResourceConfig;
}

const FLAG_SPARSE = 0x01;
const FLAG_OFFSET16 = 0x02;
const ENTRY_FLAG_COMPLEX = 0x0001;
const ENTRY_FLAG_COMPACT = 0x0008;
const NO_ENTRY = 0xffffffff;
const MAX_CANDIDATES = 512;
/**
 * Configurations examined by one `resolve`, references followed included. Each of 5 hops may fan out to every
 * configuration of a type, so without a budget a table of a few thousand configurations pointing at each other
 * costs thousands^5; an honest label or icon examines a few hundred.
 */
export const RESOLVE_BUDGET = 100_000;

function unpackLocalePart(bytes: Buffer, at: number, base: number): string {
  const first = bytes[at] as number;
  const second = bytes[at + 1] as number;
  if (first === 0) return '';
  if (!(first & 0x80)) return String.fromCharCode(first, second);
  // Three-letter codes are packed into 15 bits.
  return String.fromCharCode(
    base + (second & 0x1f),
    base + (((second & 0xe0) >> 5) | ((first & 0x03) << 3)),
    base + ((first & 0x7c) >> 2),
  );
}

/** Read once per type chunk (thousands in a big table): no closures here. */
function readConfig(bytes: Buffer, at: number): ResourceConfig {
  const size = bytes.readUInt32LE(at);
  return {
    language: size >= 10 ? unpackLocalePart(bytes, at + 8, 0x61) : '',
    region: size >= 12 ? unpackLocalePart(bytes, at + 10, 0x30) : '',
    density: size >= 16 ? bytes.readUInt16LE(at + 14) : 0,
    sdkVersion: size >= 26 ? bytes.readUInt16LE(at + 24) : 0,
  };
}

/** `zh-CN`, `fr`, or `''` for the default locale. */
export function localeOf(config: ResourceConfig): string {
  return [config.language, config.region].filter(Boolean).join('-');
}

/** What label and icon resolution need from a resource table (resources.arsc or an AAB's resources.pb). */
export interface ResourceResolver {
  /** Every configuration's final value for `resourceId`, references followed. */
  resolve(resourceId: number): ResourceCandidate[];
}

/**
 * A parsed resources.arsc, indexed by (package, type) → configurations; entries are decoded only when looked up.
 */
export class ResourceTable implements ResourceResolver {
  private readonly types = new Map<number, TypeChunk[]>();
  private readonly valueStrings: StringPool;

  constructor(private readonly bytes: Buffer) {
    const table = readChunkHeader(bytes, 0);
    if (table.type !== ChunkType.table) throw new ResourceFormatError('not a resource table');
    let strings: StringPool | null = null;
    let at = table.headerSize;
    while (at + 8 <= table.size) {
      const chunk = readChunkHeader(bytes, at, table.size);
      if (chunk.type === ChunkType.stringPool && !strings) strings = new StringPool(bytes, chunk);
      else if (chunk.type === ChunkType.tablePackage)
        this.readPackage(chunk.start, chunk.start + chunk.size, chunk.headerSize);
      at += chunk.size;
    }
    if (!strings) throw new ResourceFormatError('no value string pool');
    this.valueStrings = strings;
  }

  private readPackage(start: number, end: number, headerSize: number): void {
    const packageId = this.bytes.readUInt32LE(start + 8);
    let at = start + headerSize;
    while (at + 8 <= end) {
      const chunk = readChunkHeader(this.bytes, at, end);
      if (chunk.type === ChunkType.tableType) {
        const typeId = this.bytes[at + 8] as number;
        const flags = this.bytes[at + 9] as number;
        const key = ((packageId & 0xff) << 8) | typeId;
        const list = this.types.get(key) ?? [];
        list.push({
          entryCount: this.bytes.readUInt32LE(at + 12),
          entriesAt: at + this.bytes.readUInt32LE(at + 16),
          offsetsAt: at + chunk.headerSize,
          end: at + chunk.size,
          isSparse: (flags & FLAG_SPARSE) !== 0,
          isOffset16: (flags & FLAG_OFFSET16) !== 0,
          config: readConfig(this.bytes, at + 20),
        });
        this.types.set(key, list);
      }
      at += chunk.size;
    }
  }

  private entryOffset(type: TypeChunk, index: number): number | null {
    const bytes = this.bytes;
    if (type.isSparse) {
      // Sorted (u16 index, u16 offset/4) pairs.
      let low = 0;
      let high = type.entryCount - 1;
      while (low <= high) {
        const middle = (low + high) >> 1;
        const at = type.offsetsAt + middle * 4;
        const entryIndex = bytes.readUInt16LE(at);
        if (entryIndex === index) return bytes.readUInt16LE(at + 2) * 4;
        if (entryIndex < index) low = middle + 1;
        else high = middle - 1;
      }
      return null;
    }
    if (index >= type.entryCount) return null;
    if (type.isOffset16) {
      const offset = bytes.readUInt16LE(type.offsetsAt + index * 2);
      return offset === 0xffff ? null : offset * 4;
    }
    const offset = bytes.readUInt32LE(type.offsetsAt + index * 4);
    return offset === NO_ENTRY ? null : offset;
  }

  private readValue(type: TypeChunk, index: number): TypedValue | null {
    const offset = this.entryOffset(type, index);
    if (offset === null) return null;
    const at = type.entriesAt + offset;
    if (at + 8 > type.end) return null;
    const size = this.bytes.readUInt16LE(at);
    const flags = this.bytes.readUInt16LE(at + 2);
    if (flags & ENTRY_FLAG_COMPACT) return { type: flags >>> 8, data: this.bytes.readUInt32LE(at + 4) };
    if (flags & ENTRY_FLAG_COMPLEX) return null;
    const valueAt = at + size;
    if (valueAt + 8 > type.end) return null;
    return { type: this.bytes[valueAt + 3] as number, data: this.bytes.readUInt32LE(valueAt + 4) };
  }

  /** Every configuration's value for `resourceId`, references NOT followed; each configuration examined takes one from `budget`. */
  candidates(resourceId: number, budget = { left: RESOLVE_BUDGET }): ResourceCandidate[] {
    const key = (resourceId >>> 16) & 0xffff;
    const index = resourceId & 0xffff;
    const result: ResourceCandidate[] = [];
    for (const type of this.types.get(key) ?? []) {
      if (--budget.left < 0) break;
      const value = this.readValue(type, index);
      if (!value) continue;
      const text = value.type === ValueType.string ? this.valueStrings.get(value.data) : null;
      result.push({ config: type.config, value, text });
    }
    return result;
  }

  /**
   * Follows references (≤ 5 hops) and returns the final values of every configuration. A localized alias
   * (`values-zh` pointing at a shared string) keeps its own locale. At most RESOLVE_BUDGET configurations are
   * examined; what was found by then is the answer.
   */
  resolve(resourceId: number, hops = 5, budget = { left: RESOLVE_BUDGET }): ResourceCandidate[] {
    const result: ResourceCandidate[] = [];
    for (const candidate of this.candidates(resourceId, budget)) {
      if (result.length >= MAX_CANDIDATES) break;
      if (!isReferenceType(candidate.value.type) || candidate.value.data === 0) {
        result.push(candidate);
        continue;
      }
      if (hops === 0) continue;
      for (const target of this.resolve(candidate.value.data, hops - 1, budget)) {
        const { language, region } = candidate.config.language ? candidate.config : target.config;
        result.push({ ...target, config: { ...target.config, language, region } });
      }
    }
    return result.slice(0, MAX_CANDIDATES);
  }
}

/** The value for the default locale: no language first, then English, then whatever comes first. */
export function pickDefault(candidates: ResourceCandidate[]): ResourceCandidate | undefined {
  return (
    candidates.find((item) => !item.config.language && !item.config.region) ??
    candidates.find((item) => !item.config.language) ??
    candidates.find((item) => item.config.language === 'en') ??
    candidates[0]
  );
}
