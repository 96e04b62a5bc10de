import { CSMAGIC, digestWith, hashAlgorithm } from './code-signature.ts';

/** What a CodeDirectory says; the signer fills it, the conformance suite rebuilds Xcode's from these fields. */
export interface CodeDirectoryInput {
  /** 0x20200 (team id) or 0x20400 (team id + executable segment), what Xcode writes. */
  version: 0x20200 | 0x20400;
  flags: number;
  hashType: number;
  identifier: string;
  teamId: string | null;
  /** The slice bytes up to the signature: page hashes cover exactly these. */
  code: Buffer;
  /** log2 of the page size; 12 (4 KiB) on iOS. */
  pageSizeLog2: number;
  /** Special slot hashes by slot number; a missing or null slot is written as zeros. */
  specialSlots: Map<number, Buffer | null>;
  /** How many special slots to write (Xcode: 5 without DER entitlements, 7 with). */
  specialSlotCount: number;
  platform?: number;
  execSegBase?: bigint;
  execSegLimit?: bigint;
  execSegFlags?: bigint;
  /** false: page hash slots stay zero (a trial build that only needs the blob's size). */
  hashPages?: boolean;
  /**
   * A streamed executable's code, not held: its length and each page's hash (by page number), taken as it streamed
   * by. `code` is then empty.
   */
  hashed?: { length: number; pageHash(page: number): Buffer };
}

const HEADER_SIZE = { 131584: 52, 132096: 88 } as const;

/** The hash a special slot holds for `content` (a blob as stored, or a file such as Info.plist). */
export function specialSlotHash(hashType: number, content: Buffer): Buffer {
  return digestWith(hashType, content);
}

/**
 * Builds a CodeDirectory blob laid out as Apple's tools lay it out: the fixed header of its version,
 * the identifier, the team id, the special slots (highest first) and one hash per page of the code.
 */
export function buildCodeDirectory(input: CodeDirectoryInput): Buffer {
  const { size: hashSize } = hashAlgorithm(input.hashType);
  const headerSize = HEADER_SIZE[input.version];
  const identifier = Buffer.from(`${input.identifier}\0`, 'utf8');
  const team = input.teamId ? Buffer.from(`${input.teamId}\0`, 'utf8') : Buffer.alloc(0);
  const pageSize = 2 ** input.pageSizeLog2;
  const codeLength = input.hashed?.length ?? input.code.length;
  const pages = Math.ceil(codeLength / pageSize);
  const identOffset = headerSize;
  const teamOffset = team.length > 0 ? identOffset + identifier.length : 0;
  const hashOffset = identOffset + identifier.length + team.length + input.specialSlotCount * hashSize;
  const length = hashOffset + pages * hashSize;
  if (codeLength > 0xffffffff) throw new Error('code larger than 4 GiB needs codeLimit64');

  const blob = Buffer.alloc(length);
  blob.writeUInt32BE(CSMAGIC.codeDirectory, 0);
  blob.writeUInt32BE(length, 4);
  blob.writeUInt32BE(input.version, 8);
  blob.writeUInt32BE(input.flags >>> 0, 12);
  blob.writeUInt32BE(hashOffset, 16);
  blob.writeUInt32BE(identOffset, 20);
  blob.writeUInt32BE(input.specialSlotCount, 24);
  blob.writeUInt32BE(pages, 28);
  blob.writeUInt32BE(codeLength, 32);
  blob.writeUInt8(hashSize, 36);
  blob.writeUInt8(input.hashType, 37);
  blob.writeUInt8(input.platform ?? 0, 38);
  blob.writeUInt8(input.pageSizeLog2, 39);
  // 40 spare2, 44 scatterOffset: zero.
  blob.writeUInt32BE(teamOffset, 48);
  if (input.version >= 0x20400) {
    // 52 spare3 and 56 codeLimit64 stay zero below 4 GiB.
    blob.writeBigUInt64BE(input.execSegBase ?? 0n, 64);
    blob.writeBigUInt64BE(input.execSegLimit ?? 0n, 72);
    blob.writeBigUInt64BE(input.execSegFlags ?? 0n, 80);
  }
  identifier.copy(blob, identOffset);
  team.copy(blob, identOffset + identifier.length);
  for (let slot = 1; slot <= input.specialSlotCount; slot += 1) {
    const hash = input.specialSlots.get(slot);
    if (hash) hash.copy(blob, hashOffset - slot * hashSize);
  }
  for (let page = 0; page < pages && input.hashPages !== false; page += 1) {
    const start = page * pageSize;
    const hash = input.hashed
      ? input.hashed.pageHash(page)
      : digestWith(input.hashType, input.code.subarray(start, Math.min(start + pageSize, input.code.length)));
    hash.copy(blob, hashOffset + page * hashSize);
  }
  return blob;
}
