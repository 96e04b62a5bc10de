import { createHash } from 'node:crypto';
import { cmsCertificates } from '@release/inspect/der.ts';
import { parsePlistDict, type PlistDict } from '@release/inspect/plist.ts';
import { MachOError, type MachOSlice } from './macho.ts';

/** Blob magics of Apple's embedded signature (cs_blobs.h); every field is big-endian. */
export const CSMAGIC = {
  requirement: 0xfade0c00,
  requirements: 0xfade0c01,
  codeDirectory: 0xfade0c02,
  embeddedSignature: 0xfade0cc0,
  entitlements: 0xfade7171,
  derEntitlements: 0xfade7172,
  blobWrapper: 0xfade0b01,
} as const;

/** Slot types in the SuperBlob index. */
export const CSSLOT = {
  codeDirectory: 0,
  infoSlot: 1,
  requirements: 2,
  resourceDir: 3,
  application: 4,
  entitlements: 5,
  derEntitlements: 7,
  alternateCodeDirectories: 0x1000,
  signature: 0x10000,
} as const;

/** CodeDirectory hash types. */
export const CS_HASHTYPE = { sha1: 1, sha256: 2, sha256Truncated: 3, sha384: 4 } as const;

const HASH_ALGORITHMS: Record<number, { name: string; size: number }> = {
  1: { name: 'sha1', size: 20 },
  2: { name: 'sha256', size: 32 },
  3: { name: 'sha256', size: 20 },
  4: { name: 'sha384', size: 48 },
};

export interface BlobIndexEntry {
  type: number;
  offset: number;
  magic: number;
  /** The whole blob, magic and length included (what special-slot hashes cover). */
  data: Buffer;
}

export interface CodeDirectory {
  /** Slot in the SuperBlob: 0 for the primary, 0x1000+ for alternates. */
  slot: number;
  version: number;
  flags: number;
  hashType: number;
  hashSize: number;
  pageSize: number;
  codeLimit: number;
  identifier: string;
  teamId: string | null;
  platform: number;
  execSegBase: bigint | null;
  execSegLimit: bigint | null;
  execSegFlags: bigint | null;
  /** Special slot hashes by slot number (1 = Info.plist, 2 = requirements, 3 = CodeResources, 5 = entitlements, 7 = DER entitlements). */
  specialSlots: Map<number, Buffer>;
  codeHashes: Buffer[];
  /** The CodeDirectory blob itself. */
  data: Buffer;
  /** Full digest of the blob with its own hash type; Apple's cdhash is its first 20 bytes. */
  digest: Buffer;
  cdhash: Buffer;
}

export interface EmbeddedSignature {
  blobs: BlobIndexEntry[];
  codeDirectories: CodeDirectory[];
  /** Requirement types (3 = designated) with each compiled requirement blob. */
  requirements: Array<{ type: number; data: Buffer }>;
  /** The XML entitlements, parsed. */
  entitlements: PlistDict | null;
  entitlementsXml: Buffer | null;
  /** DER entitlements payload (iOS 15+ need it). */
  derEntitlements: Buffer | null;
  /** The detached CMS SignedData over the primary CodeDirectory; empty for ad-hoc signatures. */
  cms: Buffer | null;
  /** Certificates carried by the CMS, DER; the first signer's first. */
  certificates: Buffer[];
}

export function hashAlgorithm(hashType: number): { name: string; size: number } {
  const algorithm = HASH_ALGORITHMS[hashType];
  if (!algorithm) throw new MachOError('badLoadCommand', `unknown hash type ${hashType}`);
  return algorithm;
}

export function digestWith(hashType: number, data: Buffer): Buffer {
  const { name, size } = hashAlgorithm(hashType);
  return createHash(name).update(data).digest().subarray(0, size);
}

function readBlob(superBlob: Buffer, offset: number): { magic: number; data: Buffer } {
  if (offset + 8 > superBlob.length) throw new MachOError('truncated', 'blob header past the signature');
  const magic = superBlob.readUInt32BE(offset);
  const length = superBlob.readUInt32BE(offset + 4);
  if (length < 8 || offset + length > superBlob.length)
    throw new MachOError('truncated', `blob ${magic.toString(16)} runs past the signature`);
  return { magic, data: superBlob.subarray(offset, offset + length) };
}

function cString(data: Buffer, offset: number): string {
  const end = data.indexOf(0, offset);
  return data.toString('utf8', offset, end < 0 ? data.length : end);
}

export function parseCodeDirectory(data: Buffer, slot: number): CodeDirectory {
  if (data.length < 44) throw new MachOError('truncated', 'CodeDirectory too short');
  const version = data.readUInt32BE(8);
  const flags = data.readUInt32BE(12);
  const hashOffset = data.readUInt32BE(16);
  const identOffset = data.readUInt32BE(20);
  const nSpecialSlots = data.readUInt32BE(24);
  const nCodeSlots = data.readUInt32BE(28);
  const codeLimit32 = data.readUInt32BE(32);
  const hashSize = data.readUInt8(36);
  const hashType = data.readUInt8(37);
  const platform = data.readUInt8(38);
  const pageSizeLog2 = data.readUInt8(39);
  if (hashSize !== hashAlgorithm(hashType).size)
    throw new MachOError('badLoadCommand', 'hash size does not fit the hash type');
  if (hashOffset - nSpecialSlots * hashSize < 0 || hashOffset + nCodeSlots * hashSize > data.length)
    throw new MachOError('truncated', 'hash slots outside the CodeDirectory');
  const teamOffset = version >= 0x20200 && data.length >= 52 ? data.readUInt32BE(48) : 0;
  const codeLimit64 = version >= 0x20300 && data.length >= 64 ? data.readBigUInt64BE(56) : 0n;
  const hasExecSeg = version >= 0x20400 && data.length >= 88;
  const specialSlots = new Map<number, Buffer>();
  for (let slotNumber = 1; slotNumber <= nSpecialSlots; slotNumber += 1) {
    specialSlots.set(
      slotNumber,
      data.subarray(hashOffset - slotNumber * hashSize, hashOffset - (slotNumber - 1) * hashSize),
    );
  }
  const codeHashes: Buffer[] = [];
  for (let page = 0; page < nCodeSlots; page += 1)
    codeHashes.push(data.subarray(hashOffset + page * hashSize, hashOffset + (page + 1) * hashSize));
  const digest = createHash(hashAlgorithm(hashType).name).update(data).digest();
  return {
    slot,
    version,
    flags,
    hashType,
    hashSize,
    pageSize: pageSizeLog2 === 0 ? 0 : 2 ** pageSizeLog2,
    codeLimit: codeLimit64 > 0n ? Number(codeLimit64) : codeLimit32,
    identifier: cString(data, identOffset),
    teamId: teamOffset ? cString(data, teamOffset) : null,
    platform,
    execSegBase: hasExecSeg ? data.readBigUInt64BE(64) : null,
    execSegLimit: hasExecSeg ? data.readBigUInt64BE(72) : null,
    execSegFlags: hasExecSeg ? data.readBigUInt64BE(80) : null,
    specialSlots,
    codeHashes,
    data,
    digest,
    cdhash: digest.subarray(0, 20),
  };
}

function parseRequirements(data: Buffer): Array<{ type: number; data: Buffer }> {
  const count = data.readUInt32BE(8);
  if (12 + count * 8 > data.length) throw new MachOError('truncated', 'requirement index cut short');
  const out: Array<{ type: number; data: Buffer }> = [];
  for (let index = 0; index < count; index += 1) {
    const type = data.readUInt32BE(12 + index * 8);
    const offset = data.readUInt32BE(16 + index * 8);
    out.push({ type, data: readBlob(data, offset).data });
  }
  return out;
}

function certificatesOf(cms: Buffer): Buffer[] {
  try {
    const { all, signers } = cmsCertificates(cms);
    return [...signers, ...all.filter((der) => !signers.some((signer) => signer.equals(der)))];
  } catch {
    return []; // A CMS we cannot read has no certificates to offer; the verifier refuses it.
  }
}

/** Reads the embedded signature (SuperBlob) of a slice; null when the slice is not signed. */
export function readEmbeddedSignature(slice: Buffer, info: MachOSlice): EmbeddedSignature | null {
  if (!info.codeSignature) return null;
  const { dataOffset, dataSize } = info.codeSignature;
  return parseEmbeddedSignature(slice.subarray(dataOffset, dataOffset + dataSize));
}

/** Reads an embedded signature (SuperBlob) from its own bytes, as LC_CODE_SIGNATURE points at them. */
export function parseEmbeddedSignature(bytes: Buffer): EmbeddedSignature {
  const superBlob = readBlob(bytes, 0);
  if (superBlob.magic !== CSMAGIC.embeddedSignature)
    throw new MachOError('badLoadCommand', `signature magic ${superBlob.magic.toString(16)}`);
  const count = superBlob.data.readUInt32BE(8);
  if (12 + count * 8 > superBlob.data.length) throw new MachOError('truncated', 'SuperBlob index cut short');
  const result: EmbeddedSignature = {
    blobs: [],
    codeDirectories: [],
    requirements: [],
    entitlements: null,
    entitlementsXml: null,
    derEntitlements: null,
    cms: null,
    certificates: [],
  };
  for (let index = 0; index < count; index += 1) {
    const type = superBlob.data.readUInt32BE(12 + index * 8);
    const offset = superBlob.data.readUInt32BE(16 + index * 8);
    const blob = readBlob(superBlob.data, offset);
    result.blobs.push({ type, offset, magic: blob.magic, data: blob.data });
    const payload = blob.data.subarray(8);
    if (blob.magic === CSMAGIC.codeDirectory) result.codeDirectories.push(parseCodeDirectory(blob.data, type));
    else if (blob.magic === CSMAGIC.requirements) result.requirements = parseRequirements(blob.data);
    else if (blob.magic === CSMAGIC.entitlements) {
      result.entitlementsXml = payload;
      result.entitlements = parsePlistDict(payload);
    } else if (blob.magic === CSMAGIC.derEntitlements) result.derEntitlements = payload;
    else if (blob.magic === CSMAGIC.blobWrapper && type === CSSLOT.signature) {
      result.cms = payload.length > 0 ? payload : null;
      if (result.cms) result.certificates = certificatesOf(result.cms);
    }
  }
  return result;
}

/** The blob of a slot as stored (what the CodeDirectory's special slot hashes). */
export function blobOfSlot(signature: EmbeddedSignature, slot: number): Buffer | null {
  return signature.blobs.find((blob) => blob.type === slot)?.data ?? null;
}

/**
 * Recomputes the page hashes of a CodeDirectory over the slice (pages of `pageSize` up to `codeLimit`, the
 * last one short) and returns the pages that differ. Empty means the code is what was signed.
 */
export function mismatchedPages(slice: Buffer, directory: CodeDirectory): number[] {
  const pageSize = directory.pageSize || directory.codeLimit;
  if (directory.codeLimit > slice.length) return [-1];
  return mismatchedPageHashes(directory, (page) => {
    const start = page * pageSize;
    return digestWith(directory.hashType, slice.subarray(start, Math.min(start + pageSize, directory.codeLimit)));
  });
}

/** The pages whose hash (`actual`, by page number) differs from the CodeDirectory's; [-1] when the count differs. */
export function mismatchedPageHashes(directory: CodeDirectory, actual: (page: number) => Buffer): number[] {
  const pageSize = directory.pageSize || directory.codeLimit;
  if (Math.ceil(directory.codeLimit / pageSize) !== directory.codeHashes.length) return [-1];
  const bad: number[] = [];
  directory.codeHashes.forEach((expected, page) => {
    if (!actual(page).equals(expected)) bad.push(page);
  });
  return bad;
}

/** Checks each special slot the CodeDirectory hashes against the blob or file given for it; returns the slots that differ. */
export function mismatchedSpecialSlots(directory: CodeDirectory, contents: Map<number, Buffer | null>): number[] {
  const bad: number[] = [];
  for (const [slot, expected] of directory.specialSlots) {
    const content = contents.get(slot);
    if (content === undefined) continue;
    const isEmpty = expected.every((byte) => byte === 0);
    if (content === null ? !isEmpty : !digestWith(directory.hashType, content).equals(expected)) bad.push(slot);
  }
  return bad.sort((a, b) => a - b);
}
