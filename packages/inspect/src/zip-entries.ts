/** What the inspectors see of one archive entry. */
export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  isDirectory: boolean;
  isEncrypted: boolean;
}

/** The entries of an archive by name, in central-directory order (the first of duplicate names wins). */
export interface ZipEntries {
  readonly size: number;
  has(name: string): boolean;
  get(name: string): ZipEntryInfo | undefined;
  keys(): IterableIterator<string>;
  values(): IterableIterator<ZipEntryInfo>;
  /** Every entry's name and sizes without an object per entry (the package facts sum 50,000 of them). */
  forEachSize(visit: (name: string, compressedSize: number, uncompressedSize: number) => void): void;
}

/** Where an entry's data is and how to check it. */
export interface EntryLocation extends ZipEntryInfo {
  localHeaderOffset: number;
  crc32: number;
  /** 0 stored, 8 deflate; anything else cannot be read. */
  method: number;
}

const FLAG_ENCRYPTED = 0x0001;

/**
 * The central directory kept as columns: a Map from name to row, and typed arrays for the numbers. A game's
 * ipa has 50,000 entries; an object per entry would cost the garbage collector more than parsing them all.
 * Objects are made only for the entries asked for.
 */
export class EntryTable implements ZipEntries {
  private readonly rows = new Map<string, number>();
  readonly localHeaderOffsets: Float64Array;
  readonly compressedSizes: Float64Array;
  readonly uncompressedSizes: Float64Array;
  private readonly crcs: Uint32Array;
  private readonly methods: Uint16Array;
  private readonly flags: Uint16Array;

  constructor(capacity: number) {
    this.localHeaderOffsets = new Float64Array(capacity);
    this.compressedSizes = new Float64Array(capacity);
    this.uncompressedSizes = new Float64Array(capacity);
    this.crcs = new Uint32Array(capacity);
    this.methods = new Uint16Array(capacity);
    this.flags = new Uint16Array(capacity);
  }

  get size(): number {
    return this.rows.size;
  }

  /** Adds an entry unless its name is already there (the first one wins, as every reader here assumes). */
  add(
    name: string,
    localHeaderOffset: number,
    compressedSize: number,
    uncompressedSize: number,
    crc32: number,
    method: number,
    flags: number,
  ): void {
    if (this.rows.has(name)) return;
    const row = this.rows.size;
    this.rows.set(name, row);
    this.localHeaderOffsets[row] = localHeaderOffset;
    this.compressedSizes[row] = compressedSize;
    this.uncompressedSizes[row] = uncompressedSize;
    this.crcs[row] = crc32;
    this.methods[row] = method;
    this.flags[row] = flags;
  }

  has(name: string): boolean {
    return this.rows.has(name);
  }

  get(name: string): ZipEntryInfo | undefined {
    return this.locate(name);
  }

  /** The entry with what reading it needs; undefined when there is no such name. */
  locate(name: string): EntryLocation | undefined {
    const row = this.rows.get(name);
    if (row === undefined) return undefined;
    return {
      name,
      compressedSize: this.compressedSizes[row] as number,
      uncompressedSize: this.uncompressedSizes[row] as number,
      isDirectory: name.endsWith('/'),
      isEncrypted: ((this.flags[row] as number) & FLAG_ENCRYPTED) !== 0,
      localHeaderOffset: this.localHeaderOffsets[row] as number,
      crc32: this.crcs[row] as number,
      method: this.methods[row] as number,
    };
  }

  keys(): IterableIterator<string> {
    return this.rows.keys();
  }

  forEachSize(visit: (name: string, compressedSize: number, uncompressedSize: number) => void): void {
    for (const [name, row] of this.rows)
      visit(name, this.compressedSizes[row] as number, this.uncompressedSizes[row] as number);
  }

  *values(): IterableIterator<ZipEntryInfo> {
    for (const name of this.rows.keys()) {
      const entry = this.locate(name);
      if (entry) yield entry;
    }
  }
}
