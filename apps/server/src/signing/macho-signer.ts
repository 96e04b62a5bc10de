import type { KeyObject } from 'node:crypto';
import { X509Certificate } from 'node:crypto';
import { certificateSubject } from '@release/inspect/x509-name.ts';
import { roomFor } from './app-files.ts';
import { buildCodeDirectory, specialSlotHash } from './code-directory.ts';
import { CSMAGIC, CSSLOT, CS_HASHTYPE, parseCodeDirectory } from './code-signature.ts';
import { signCodeDirectories } from './cms-sign.ts';
import { findSegment, LC_CODE_SIGNATURE, MachOError, parseMachO, type MachOSlice } from './macho.ts';
import { designatedRequirement, requirementSet } from './requirements.ts';

/** What one Mach-O is signed with; the bundle walk (next step) supplies the files and entitlements per bundle. */
export interface MachOSigningInput {
  identifier: string;
  teamId: string | null;
  certificate: Buffer;
  chain: Buffer[];
  privateKey: KeyObject;
  /** Info.plist of the bundle whose main executable this is (special slot 1); null for a dylib. */
  infoPlist: Buffer | null;
  /** `_CodeSignature/CodeResources` of that bundle (slot 3); null for a dylib. */
  codeResources: Buffer | null;
  /** The XML and DER entitlements (slots 5 and 7); null for none. */
  entitlementsXml: Buffer | null;
  entitlementsDer: Buffer | null;
  /** The bundle's main executable: CS_EXECSEG_MAIN_BINARY, plus ALLOW_UNSIGNED when get-task-allow. */
  isMainExecutable: boolean;
  getTaskAllow: boolean;
  /** SHA-256 only, or Xcode's SHA-1 primary with a SHA-256 alternate (older iOS). */
  hashes: 'sha256' | 'sha1+sha256';
  signingTime: Date;
}

export class SigningError extends Error {
  readonly reason: 'encrypted' | 'noRoom' | 'layout';
  constructor(reason: 'encrypted' | 'noRoom' | 'layout', detail: string) {
    super(`signing: ${detail}`);
    this.name = 'SigningError';
    this.reason = reason;
  }
}

const EXECSEG_MAIN_BINARY = 0x1n;
const EXECSEG_ALLOW_UNSIGNED = 0x10n;

function blob(magic: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(magic, 0);
  head.writeUInt32BE(payload.length + 8, 4);
  return Buffer.concat([head, payload]);
}

function superBlob(entries: Array<[number, Buffer]>): Buffer {
  const headerSize = 12 + entries.length * 8;
  const index = Buffer.alloc(headerSize);
  index.writeUInt32BE(CSMAGIC.embeddedSignature, 0);
  index.writeUInt32BE(entries.length, 8);
  let offset = headerSize;
  entries.forEach(([type, data], i) => {
    index.writeUInt32BE(type, 12 + i * 8);
    index.writeUInt32BE(offset, 16 + i * 8);
    offset += data.length;
  });
  index.writeUInt32BE(offset, 4);
  return Buffer.concat([index, ...entries.map(([, data]) => data)]);
}

const align = (value: number, to: number) => Math.ceil(value / to) * to;

export interface Layout {
  signatureOffset: number;
  /** Whether LC_CODE_SIGNATURE has to be added (at the end of the load commands). */
  addCommand: boolean;
}

/** Where the signature goes in a slice of `size` bytes. */
export function layoutOf(size: number, info: MachOSlice): Layout {
  const linkedit = findSegment(info, '__LINKEDIT');
  if (!linkedit) throw new SigningError('layout', 'no __LINKEDIT segment');
  if (
    info.segments.some(
      (segment) => segment !== linkedit && segment.fileSize > 0 && segment.fileOffset > linkedit.fileOffset,
    )
  ) {
    throw new SigningError('layout', '__LINKEDIT is not the last segment');
  }
  if (info.codeSignature) return { signatureOffset: info.codeSignature.dataOffset, addCommand: false };
  const commandsEnd = info.headerSize + info.sizeOfCommands;
  const firstData = Math.min(
    ...info.segments
      .flatMap((segment) => segment.sections.map((section) => section.fileOffset))
      .filter((offset) => offset > 0),
    size,
  );
  if (commandsEnd + 16 > firstData) throw new SigningError('noRoom', 'no room for LC_CODE_SIGNATURE');
  return { signatureOffset: align(linkedit.fileOffset + linkedit.fileSize, 16), addCommand: true };
}

function writeU32(buffer: Buffer, info: MachOSlice, at: number, value: number) {
  if (info.littleEndian) buffer.writeUInt32LE(value >>> 0, at);
  else buffer.writeUInt32BE(value >>> 0, at);
}

function writeU64(buffer: Buffer, info: MachOSlice, at: number, value: bigint) {
  if (info.littleEndian) buffer.writeBigUInt64LE(value, at);
  else buffer.writeBigUInt64BE(value, at);
}

/** A slice's code as the signer hashes it: held bytes, or a streamed executable's page hashes. */
export type SliceCode = { bytes: Buffer } | { length: number; pageHash(hashType: number, page: number): Buffer };

/**
 * The signature of one thin slice, in two steps: `size()` is the room it takes (a trial build: CodeDirectory and
 * CMS sizes do not depend on the hashes, with room for an ECDSA signature's variance), then `patchHeader` writes
 * the new sizes into the header (they are hashed) and `build(code)` makes the signature over the code so patched.
 */
export function sliceSigner(info: MachOSlice, input: MachOSigningInput, layout: Layout) {
  if (info.encryption && info.encryption.cryptId !== 0)
    throw new SigningError('encrypted', 'App Store-encrypted binary');
  const { signatureOffset, addCommand } = layout;
  const commonName = certificateSubject(input.certificate)?.CN ?? new X509Certificate(input.certificate).subject;
  const requirements = requirementSet([{ type: 3, blob: designatedRequirement(input.identifier, commonName) }]);
  const entitlements = input.entitlementsXml ? blob(CSMAGIC.entitlements, input.entitlementsXml) : null;
  const entitlementsDer = input.entitlementsDer ? blob(CSMAGIC.derEntitlements, input.entitlementsDer) : null;
  const hashTypes = input.hashes === 'sha256' ? [CS_HASHTYPE.sha256] : [CS_HASHTYPE.sha1, CS_HASHTYPE.sha256];
  const text = findSegment(info, '__TEXT');
  const execFlags = input.isMainExecutable
    ? EXECSEG_MAIN_BINARY | (input.getTaskAllow ? EXECSEG_ALLOW_UNSIGNED : 0n)
    : 0n;

  const directoriesFor = (code: SliceCode, hashPages = true) =>
    hashTypes.map((hashType) => {
      const slots = new Map<number, Buffer | null>([
        [CSSLOT.infoSlot, input.infoPlist ? specialSlotHash(hashType, input.infoPlist) : null],
        [CSSLOT.requirements, specialSlotHash(hashType, requirements)],
        [CSSLOT.resourceDir, input.codeResources ? specialSlotHash(hashType, input.codeResources) : null],
        [CSSLOT.entitlements, entitlements ? specialSlotHash(hashType, entitlements) : null],
        [CSSLOT.derEntitlements, entitlementsDer ? specialSlotHash(hashType, entitlementsDer) : null],
      ]);
      return buildCodeDirectory({
        version: 0x20400,
        flags: 0,
        hashType,
        identifier: input.identifier,
        teamId: input.teamId,
        code: 'bytes' in code ? code.bytes : Buffer.alloc(0),
        hashed:
          'bytes' in code
            ? undefined
            : { length: code.length, pageHash: (page: number) => code.pageHash(hashType, page) },
        pageSizeLog2: 12,
        specialSlots: slots,
        specialSlotCount: entitlementsDer ? 7 : 5,
        execSegBase: BigInt(text?.fileOffset ?? 0),
        execSegLimit: BigInt(text?.fileSize ?? 0),
        execSegFlags: execFlags,
        hashPages,
      });
    });
  const assemble = (directories: Buffer[], cms: Buffer) => {
    const [primary, ...alternates] = directories;
    const entries: Array<[number, Buffer]> = [
      [CSSLOT.codeDirectory, primary as Buffer],
      [CSSLOT.requirements, requirements],
    ];
    if (entitlements) entries.push([CSSLOT.entitlements, entitlements]);
    if (entitlementsDer) entries.push([CSSLOT.derEntitlements, entitlementsDer]);
    for (const [i, directory] of alternates.entries()) entries.push([CSSLOT.alternateCodeDirectories + i, directory]);
    entries.push([CSSLOT.signature, blob(CSMAGIC.blobWrapper, cms)]);
    return superBlob(entries);
  };
  const sign = (directories: Buffer[]) =>
    signCodeDirectories({
      codeDirectories: directories.map((data, i) =>
        parseCodeDirectory(data, i === 0 ? 0 : CSSLOT.alternateCodeDirectories + i - 1),
      ),
      certificate: input.certificate,
      chain: input.chain,
      privateKey: input.privateKey,
      signingTime: input.signingTime,
    });
  const trial = directoriesFor({ length: signatureOffset, pageHash: () => Buffer.alloc(0) }, false);
  const dataSize = align(assemble(trial, sign(trial)).length + 64, 16);

  return {
    dataSize,
    /** Writes the new __LINKEDIT size and LC_CODE_SIGNATURE into `head` (the slice's first bytes). */
    patchHeader(head: Buffer): void {
      const linkedit = findSegment(info, '__LINKEDIT');
      if (!linkedit) throw new SigningError('layout', 'no __LINKEDIT segment');
      const linkeditFileSize = signatureOffset + dataSize - linkedit.fileOffset;
      const segmentPage = info.is64 && (info.cpuType & 0xff) === 12 ? 0x4000 : 0x1000;
      if (info.is64) {
        writeU64(head, info, linkedit.commandOffset + 32, BigInt(align(linkeditFileSize, segmentPage)));
        writeU64(head, info, linkedit.commandOffset + 48, BigInt(linkeditFileSize));
      } else {
        writeU32(head, info, linkedit.commandOffset + 28, align(linkeditFileSize, segmentPage));
        writeU32(head, info, linkedit.commandOffset + 36, linkeditFileSize);
      }
      const commandAt = addCommand
        ? info.headerSize + info.sizeOfCommands
        : (info.codeSignature?.commandOffset as number);
      if (addCommand) {
        head.fill(0, commandAt, commandAt + 16);
        writeU32(head, info, 16, info.loadCommands.length + 1);
        writeU32(head, info, 20, info.sizeOfCommands + 16);
        writeU32(head, info, commandAt, LC_CODE_SIGNATURE);
        writeU32(head, info, commandAt + 4, 16);
      }
      writeU32(head, info, commandAt + 8, signatureOffset);
      writeU32(head, info, commandAt + 12, dataSize);
    },
    /** The signature blob over the patched code (`dataSize` bytes, zero padded). */
    build(code: SliceCode): Buffer {
      const directories = directoriesFor(code);
      const signature = Buffer.alloc(dataSize);
      assemble(directories, sign(directories)).copy(signature);
      return signature;
    },
  };
}

/**
 * Signs one thin slice: same code, new signature at the end of __LINKEDIT, header sizes updated first (they are
 * hashed). A slice read with room after it (allocWithRoom) is signed in that memory: its bytes change.
 */
export function signSlice(slice: Buffer, input: MachOSigningInput): Buffer {
  const info = parseMachO(slice).slices[0] as MachOSlice;
  const layout = layoutOf(slice.length, info);
  const { signatureOffset } = layout;
  const signer = sliceSigner(info, input, layout);
  // Signed where it is when it was read with room after it (the source's bytes are not needed afterwards).
  const inPlace = roomFor(slice, signatureOffset + signer.dataSize);
  const out = inPlace ?? Buffer.allocUnsafe(signatureOffset + signer.dataSize);
  const copied = inPlace
    ? Math.min(signatureOffset, slice.length)
    : slice.copy(out, 0, 0, Math.min(signatureOffset, slice.length));
  out.fill(0, copied);
  signer.patchHeader(out);
  signer.build({ bytes: out.subarray(0, signatureOffset) }).copy(out, signatureOffset);
  return out;
}

/** Signs a thin or FAT Mach-O; FAT slices keep their order and alignment. */
export function signMachO(file: Buffer, input: MachOSigningInput): Buffer {
  const parsed = parseMachO(file);
  if (!parsed.isFat) return signSlice(file, input);
  if (parsed.isFat64) throw new MachOError('badFatTable', '64-bit FAT tables are not re-signed yet');
  const signed = parsed.slices.map((slice) => ({
    slice,
    bytes: signSlice(file.subarray(slice.offset, slice.offset + slice.size), input),
  }));
  const header = Buffer.alloc(8 + signed.length * 20);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(signed.length, 4);
  let offset = parsed.slices.reduce((first, slice) => Math.min(first, slice.offset), Number.MAX_SAFE_INTEGER);
  const placed = signed.map(({ slice, bytes }, i) => {
    offset = align(offset, 2 ** (slice.align ?? 14));
    const base = 8 + i * 20;
    header.writeInt32BE(slice.cpuType, base);
    header.writeInt32BE(slice.cpuSubtype, base + 4);
    header.writeUInt32BE(offset, base + 8);
    header.writeUInt32BE(bytes.length, base + 12);
    header.writeUInt32BE(slice.align ?? 14, base + 16);
    const at = offset;
    offset += bytes.length;
    return { at, bytes };
  });
  const out = Buffer.alloc(offset);
  header.copy(out, 0);
  for (const { at, bytes } of placed) bytes.copy(out, at);
  return out;
}
