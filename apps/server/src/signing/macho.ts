/**
 * Mach-O reader for signing and verifying: thin (32/64-bit, either byte order) and FAT (32 and 64-bit
 * arch tables) files, load commands, segments with their sections, LC_CODE_SIGNATURE and LC_ENCRYPTION_INFO.
 * It reads a buffer and never trusts a count or an offset it has not bounded.
 */

export const LC_SEGMENT = 0x1;
export const LC_SEGMENT_64 = 0x19;
export const LC_CODE_SIGNATURE = 0x1d;
export const LC_ENCRYPTION_INFO = 0x21;
export const LC_ENCRYPTION_INFO_64 = 0x2c;
export const LC_ID_DYLIB = 0xd;
export const LC_LOAD_DYLIB = 0xc;
export const LC_UUID = 0x1b;
/** LC_REQ_DYLD is or-ed into some command ids (e.g. LC_LOAD_WEAK_DYLIB). */
const LC_REQ_DYLD = 0x80000000;

export const MH_EXECUTE = 0x2;
export const MH_DYLIB = 0x6;
export const MH_BUNDLE = 0x8;

const FAT_MAGIC = 0xcafebabe;
const FAT_MAGIC_64 = 0xcafebabf;
const MH_MAGIC = 0xfeedface;
const MH_MAGIC_64 = 0xfeedfacf;
const MH_CIGAM = 0xcefaedfe;
const MH_CIGAM_64 = 0xcffaedfe;
/** More architectures than this means a Java class file (same magic) or garbage. */
const MAX_FAT_ARCHS = 32;

export type MachOFailure = 'notMachO' | 'truncated' | 'badLoadCommand' | 'badFatTable';

export class MachOError extends Error {
  readonly reason: MachOFailure;
  constructor(reason: MachOFailure, detail: string) {
    super(`Mach-O: ${detail}`);
    this.name = 'MachOError';
    this.reason = reason;
  }
}

export interface MachOSection {
  name: string;
  segmentName: string;
  address: bigint;
  size: bigint;
  fileOffset: number;
}

export interface MachOSegment {
  name: string;
  vmAddress: bigint;
  vmSize: bigint;
  fileOffset: number;
  fileSize: number;
  maxProtection: number;
  initialProtection: number;
  sections: MachOSection[];
  /** Where the segment command sits in the slice (the signer grows __LINKEDIT there). */
  commandOffset: number;
}

export interface LoadCommand {
  cmd: number;
  size: number;
  /** Offset of the command within its slice. */
  offset: number;
}

export interface LinkeditData {
  dataOffset: number;
  dataSize: number;
  commandOffset: number;
}

export interface EncryptionInfo {
  cryptOffset: number;
  cryptSize: number;
  /** Non-zero: encrypted by the App Store (FairPlay); such a binary cannot be re-signed. */
  cryptId: number;
  commandOffset: number;
}

/** One architecture: the whole file for a thin Mach-O, a slice of a FAT one. */
export interface MachOSlice {
  /** Offset of the slice in the file (0 when thin). */
  offset: number;
  size: number;
  /** FAT alignment as a power of two (e.g. 14 for 16 KiB); null for a thin file. */
  align: number | null;
  is64: boolean;
  littleEndian: boolean;
  cpuType: number;
  cpuSubtype: number;
  arch: string;
  fileType: number;
  flags: number;
  /** Bytes of the header plus its load commands (where new commands would go). */
  headerSize: number;
  sizeOfCommands: number;
  loadCommands: LoadCommand[];
  segments: MachOSegment[];
  codeSignature: LinkeditData | null;
  encryption: EncryptionInfo | null;
  /** LC_ID_DYLIB name of a dylib or framework binary. */
  dylibId: string | null;
  dylibs: string[];
  uuid: string | null;
}

export interface MachOFile {
  isFat: boolean;
  /** 64-bit FAT arch table (`0xcafebabf`). */
  isFat64: boolean;
  slices: MachOSlice[];
}

/** `arm64`, `armv7`, `x86_64`… from the CPU type and subtype. */
export function archName(cpuType: number, cpuSubtype: number): string {
  const subtype = cpuSubtype & 0x00ffffff;
  switch (cpuType) {
    case 12:
      return (
        ({ 9: 'armv7', 10: 'armv7f', 11: 'armv7s', 12: 'armv7k', 6: 'armv6' } as Record<number, string>)[subtype] ??
        'arm'
      );
    case 0x0100000c:
      return subtype === 2 ? 'arm64e' : 'arm64';
    case 0x0200000c:
      return 'arm64_32';
    case 7:
      return 'i386';
    case 0x01000007:
      return subtype === 8 ? 'x86_64h' : 'x86_64';
    default:
      return `cpu${cpuType}`;
  }
}

function cString(bytes: Buffer, start: number, end: number): string {
  const zero = bytes.indexOf(0, start);
  return bytes.toString('utf8', start, zero < 0 || zero > end ? end : zero);
}

/** Whether the buffer starts like a Mach-O or FAT file (for walking a bundle's files). */
export function looksLikeMachO(head: Buffer): boolean {
  if (head.length < 8) return false;
  const magic = head.readUInt32BE(0);
  if (magic === FAT_MAGIC || magic === FAT_MAGIC_64) {
    const count = head.readUInt32BE(4);
    return count > 0 && count <= MAX_FAT_ARCHS;
  }
  return magic === MH_MAGIC || magic === MH_MAGIC_64 || magic === MH_CIGAM || magic === MH_CIGAM_64;
}

function parseSlice(bytes: Buffer, offset: number, size: number, align: number | null): MachOSlice {
  const slice = bytes.subarray(offset, offset + size);
  const magicBE = slice.length >= 4 ? slice.readUInt32BE(0) : 0;
  const littleEndian = magicBE === MH_CIGAM || magicBE === MH_CIGAM_64;
  if (!littleEndian && magicBE !== MH_MAGIC && magicBE !== MH_MAGIC_64)
    throw new MachOError('notMachO', `magic ${magicBE.toString(16)}`);
  if (slice.length < 28) throw new MachOError('truncated', 'header cut short');
  const is64 = magicBE === MH_MAGIC_64 || magicBE === MH_CIGAM_64;
  const u32 = (at: number) => {
    if (at + 4 > slice.length) throw new MachOError('truncated', `read past the end at ${at}`);
    return littleEndian ? slice.readUInt32LE(at) : slice.readUInt32BE(at);
  };
  const u64 = (at: number) => {
    if (at + 8 > slice.length) throw new MachOError('truncated', `read past the end at ${at}`);
    return littleEndian ? slice.readBigUInt64LE(at) : slice.readBigUInt64BE(at);
  };
  const number64 = (at: number) => {
    const value = u64(at);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new MachOError('badLoadCommand', 'file offset too large');
    return Number(value);
  };
  const cpuType = u32(4) | 0;
  const cpuSubtype = u32(8) | 0;
  const fileType = u32(12);
  const ncmds = u32(16);
  const sizeOfCommands = u32(20);
  const flags = u32(24);
  const headerSize = is64 ? 32 : 28;
  const commandsEnd = headerSize + sizeOfCommands;
  if (commandsEnd > slice.length) throw new MachOError('truncated', 'load commands run past the end');
  if (ncmds > sizeOfCommands / 8) throw new MachOError('badLoadCommand', 'more commands than room for them');

  const result: MachOSlice = {
    offset,
    size,
    align,
    is64,
    littleEndian,
    cpuType,
    cpuSubtype,
    arch: archName(cpuType, cpuSubtype),
    fileType,
    flags,
    headerSize,
    sizeOfCommands,
    loadCommands: [],
    segments: [],
    codeSignature: null,
    encryption: null,
    dylibId: null,
    dylibs: [],
    uuid: null,
  };
  let at = headerSize;
  for (let index = 0; index < ncmds; index += 1) {
    const cmd = u32(at);
    const cmdSize = u32(at + 4);
    if (cmdSize < 8 || at + cmdSize > commandsEnd || cmdSize % 4 !== 0)
      throw new MachOError('badLoadCommand', `command ${index} has size ${cmdSize}`);
    result.loadCommands.push({ cmd, size: cmdSize, offset: at });
    const id = cmd & ~LC_REQ_DYLD;
    if (id === LC_SEGMENT_64 || id === LC_SEGMENT) {
      const wide = id === LC_SEGMENT_64;
      const fixed = wide ? 72 : 56;
      const sectionSize = wide ? 80 : 68;
      const nsects = u32(at + (wide ? 64 : 48));
      if (fixed + nsects * sectionSize > cmdSize)
        throw new MachOError('badLoadCommand', 'sections run past their segment command');
      const segment: MachOSegment = {
        name: cString(slice, at + 8, at + 24),
        vmAddress: wide ? u64(at + 24) : BigInt(u32(at + 24)),
        vmSize: wide ? u64(at + 32) : BigInt(u32(at + 28)),
        fileOffset: wide ? number64(at + 40) : u32(at + 32),
        fileSize: wide ? number64(at + 48) : u32(at + 36),
        maxProtection: u32(at + (wide ? 56 : 40)),
        initialProtection: u32(at + (wide ? 60 : 44)),
        sections: [],
        commandOffset: at,
      };
      for (let s = 0; s < nsects; s += 1) {
        const base = at + fixed + s * sectionSize;
        segment.sections.push({
          name: cString(slice, base, base + 16),
          segmentName: cString(slice, base + 16, base + 32),
          address: wide ? u64(base + 32) : BigInt(u32(base + 32)),
          size: wide ? u64(base + 40) : BigInt(u32(base + 36)),
          fileOffset: u32(base + (wide ? 48 : 40)),
        });
      }
      result.segments.push(segment);
    } else if (id === LC_CODE_SIGNATURE) {
      result.codeSignature = { dataOffset: u32(at + 8), dataSize: u32(at + 12), commandOffset: at };
    } else if (id === LC_ENCRYPTION_INFO || id === LC_ENCRYPTION_INFO_64) {
      result.encryption = {
        cryptOffset: u32(at + 8),
        cryptSize: u32(at + 12),
        cryptId: u32(at + 16),
        commandOffset: at,
      };
    } else if (
      id === LC_ID_DYLIB ||
      id === LC_LOAD_DYLIB ||
      id === 0x18 /* LC_LOAD_WEAK_DYLIB */ ||
      id === 0x1f /* LC_REEXPORT_DYLIB */
    ) {
      const nameOffset = u32(at + 8);
      const name = nameOffset < cmdSize ? cString(slice, at + nameOffset, at + cmdSize) : '';
      if (id === LC_ID_DYLIB) result.dylibId = name;
      else result.dylibs.push(name);
    } else if (id === LC_UUID && cmdSize >= 24) {
      const hex = slice.toString('hex', at + 8, at + 24).toUpperCase();
      result.uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    at += cmdSize;
  }
  const signature = result.codeSignature;
  if (signature && signature.dataOffset + signature.dataSize > size)
    throw new MachOError('truncated', 'code signature runs past the end of the slice');
  return result;
}

function parseFat(bytes: Buffer, wide: boolean): MachOSlice[] {
  const count = bytes.readUInt32BE(4);
  if (count === 0 || count > MAX_FAT_ARCHS) throw new MachOError('badFatTable', `${count} architectures`);
  const entrySize = wide ? 32 : 20;
  if (8 + count * entrySize > bytes.length) throw new MachOError('truncated', 'FAT table cut short');
  const slices: MachOSlice[] = [];
  for (let index = 0; index < count; index += 1) {
    const base = 8 + index * entrySize;
    const offset = wide ? Number(bytes.readBigUInt64BE(base + 8)) : bytes.readUInt32BE(base + 8);
    const size = wide ? Number(bytes.readBigUInt64BE(base + 16)) : bytes.readUInt32BE(base + 12);
    const align = bytes.readUInt32BE(base + (wide ? 24 : 16));
    if (offset < 8 + count * entrySize || offset + size > bytes.length)
      throw new MachOError('badFatTable', `slice ${index} lies outside the file`);
    const slice = parseSlice(bytes, offset, size, align);
    if (slice.cpuType !== (bytes.readInt32BE(base) | 0))
      throw new MachOError('badFatTable', `slice ${index} is not the architecture its table says`);
    slices.push(slice);
  }
  const ordered = [...slices].sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < ordered.length; i += 1) {
    const previous = ordered[i - 1] as MachOSlice;
    if ((ordered[i] as MachOSlice).offset < previous.offset + previous.size)
      throw new MachOError('badFatTable', 'slices overlap');
  }
  return slices;
}

/** Parses a thin or FAT Mach-O held in memory. */
export function parseMachO(bytes: Buffer): MachOFile {
  if (bytes.length < 8) throw new MachOError('notMachO', 'too short');
  const magic = bytes.readUInt32BE(0);
  if (magic === FAT_MAGIC || magic === FAT_MAGIC_64) {
    return { isFat: true, isFat64: magic === FAT_MAGIC_64, slices: parseFat(bytes, magic === FAT_MAGIC_64) };
  }
  return { isFat: false, isFat64: false, slices: [parseSlice(bytes, 0, bytes.length, null)] };
}

/**
 * Parses a thin Mach-O from its first bytes only (header and load commands), `size` being the whole file's: what a
 * streamed executable is signed and checked by without holding it.
 */
export function parseThinHead(head: Buffer, size: number): MachOSlice {
  if (head.length < 8) throw new MachOError('notMachO', 'too short');
  const magic = head.readUInt32BE(0);
  if (magic === FAT_MAGIC || magic === FAT_MAGIC_64) throw new MachOError('notMachO', 'a FAT file is not thin');
  return parseSlice(head, 0, size, null);
}

/** The bytes of one slice. */
export function sliceBytes(file: Buffer, slice: MachOSlice): Buffer {
  return file.subarray(slice.offset, slice.offset + slice.size);
}

export function findSegment(slice: MachOSlice, name: string): MachOSegment | undefined {
  return slice.segments.find((segment) => segment.name === name);
}
