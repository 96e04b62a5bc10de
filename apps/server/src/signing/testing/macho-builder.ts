import { createHash } from 'node:crypto';
import { signCms, type TestIdentity } from '@release/inspect/testing/signing.ts';
import { CSMAGIC, CSSLOT, CS_HASHTYPE } from '../code-signature.ts';

/** Builds small but well-formed Mach-O files for tests: segments, a UUID, optional encryption, and a real signature. */
export interface ThinOptions {
  is64?: boolean;
  cpuType?: number;
  cpuSubtype?: number;
  /** Bytes of code in __TEXT (after the header); pages are hashed over them. */
  codeSize?: number;
  dylibId?: string;
  cryptId?: number;
  signature?: SignatureOptions | null;
}

export interface SignatureOptions {
  identifier: string;
  teamId?: string;
  /** Primary CodeDirectory hash type; SHA-1 adds a SHA-256 alternate as Xcode does. */
  hashType?: number;
  infoPlist?: Buffer;
  entitlementsXml?: Buffer;
  /** Signs with CMS; without it the signature is ad-hoc (empty wrapper). */
  signer?: TestIdentity;
  /** The CMS signing time; by default inside the signer's validity (see signCms). */
  signingTime?: Date;
}

export const CPU_ARM64 = { cpuType: 0x0100000c, cpuSubtype: 0 };
export const CPU_ARMV7 = { cpuType: 12, cpuSubtype: 9 };
const PAGE = 4096;
/** Room for the signature: 16 KiB, plus two hashes a page for a large binary. */
const signatureReserve = (codeSize: number) => 16384 + (codeSize > 64 * PAGE ? Math.ceil(codeSize / PAGE) * 64 : 0);

function blob(magic: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(magic, 0);
  head.writeUInt32BE(payload.length + 8, 4);
  return Buffer.concat([head, payload]);
}

function superBlob(magic: number, entries: Array<[number, Buffer]>): Buffer {
  const headerSize = 12 + entries.length * 8;
  const index = Buffer.alloc(headerSize);
  index.writeUInt32BE(magic, 0);
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

const hashName = (type: number) => (type === CS_HASHTYPE.sha1 ? 'sha1' : 'sha256');

function codeDirectory(
  code: Buffer,
  type: number,
  options: SignatureOptions,
  special: Map<number, Buffer | null>,
  execSegLimit: number,
): Buffer {
  const hashSize = type === CS_HASHTYPE.sha1 ? 20 : 32;
  const identifier = Buffer.from(`${options.identifier}\0`);
  const team = options.teamId ? Buffer.from(`${options.teamId}\0`) : Buffer.alloc(0);
  const nSpecial = Math.max(0, ...special.keys());
  const pages = Math.ceil(code.length / PAGE);
  const fixed = 88;
  const identOffset = fixed;
  const teamOffset = team.length ? identOffset + identifier.length : 0;
  const hashOffset = identOffset + identifier.length + team.length + nSpecial * hashSize;
  const header = Buffer.alloc(fixed);
  header.writeUInt32BE(CSMAGIC.codeDirectory, 0);
  header.writeUInt32BE(hashOffset + pages * hashSize, 4);
  header.writeUInt32BE(0x20400, 8);
  header.writeUInt32BE(0, 12);
  header.writeUInt32BE(hashOffset, 16);
  header.writeUInt32BE(identOffset, 20);
  header.writeUInt32BE(nSpecial, 24);
  header.writeUInt32BE(pages, 28);
  header.writeUInt32BE(code.length, 32);
  header.writeUInt8(hashSize, 36);
  header.writeUInt8(type, 37);
  header.writeUInt8(12, 39);
  header.writeUInt32BE(teamOffset, 48);
  header.writeBigUInt64BE(0n, 64);
  header.writeBigUInt64BE(BigInt(execSegLimit), 72);
  header.writeBigUInt64BE(1n, 80);
  const specialHashes: Buffer[] = [];
  for (let slot = nSpecial; slot >= 1; slot -= 1) {
    const content = special.get(slot);
    specialHashes.push(content ? createHash(hashName(type)).update(content).digest() : Buffer.alloc(hashSize));
  }
  const codeHashes: Buffer[] = [];
  for (let page = 0; page < pages; page += 1)
    codeHashes.push(
      createHash(hashName(type))
        .update(code.subarray(page * PAGE, (page + 1) * PAGE))
        .digest(),
    );
  return Buffer.concat([header, identifier, team, ...specialHashes, ...codeHashes]);
}

/** A thin Mach-O: header, __TEXT (with __text), __LINKEDIT, LC_UUID, optional LC_ID_DYLIB / encryption, LC_CODE_SIGNATURE. */
export function buildThinMachO(options: ThinOptions = {}): Buffer {
  const is64 = options.is64 ?? true;
  const le = (size: number) => Buffer.alloc(size);
  const commands: Buffer[] = [];
  const codeSize = options.codeSize ?? 3 * PAGE + 123;
  const linkeditStart = Math.ceil(codeSize / PAGE) * PAGE;
  const signed = options.signature !== null && options.signature !== undefined;
  const signatureOffset = linkeditStart + 64;
  const reserve = signatureReserve(codeSize);
  const linkeditSize = 64 + (signed ? reserve : 0);

  const segment = (name: string, fileOffset: number, fileSize: number, sections: string[]) => {
    const fixed = is64 ? 72 : 56;
    const sectionSize = is64 ? 80 : 68;
    const cmd = le(fixed + sections.length * sectionSize);
    cmd.writeUInt32LE(is64 ? 0x19 : 0x1, 0);
    cmd.writeUInt32LE(cmd.length, 4);
    cmd.write(name, 8, 'latin1');
    if (is64) {
      cmd.writeBigUInt64LE(0x100000000n + BigInt(fileOffset), 24);
      cmd.writeBigUInt64LE(BigInt(fileSize), 32);
      cmd.writeBigUInt64LE(BigInt(fileOffset), 40);
      cmd.writeBigUInt64LE(BigInt(fileSize), 48);
      cmd.writeUInt32LE(5, 56);
      cmd.writeUInt32LE(5, 60);
      cmd.writeUInt32LE(sections.length, 64);
    } else {
      cmd.writeUInt32LE(0x4000 + fileOffset, 24);
      cmd.writeUInt32LE(fileSize, 28);
      cmd.writeUInt32LE(fileOffset, 32);
      cmd.writeUInt32LE(fileSize, 36);
      cmd.writeUInt32LE(5, 40);
      cmd.writeUInt32LE(5, 44);
      cmd.writeUInt32LE(sections.length, 48);
    }
    sections.forEach((section, i) => {
      const base = fixed + i * sectionSize;
      cmd.write(section, base, 'latin1');
      cmd.write(name, base + 16, 'latin1');
      if (is64) {
        cmd.writeBigUInt64LE(BigInt(0x100001000), base + 32);
        cmd.writeBigUInt64LE(BigInt(codeSize - 4096), base + 40);
        cmd.writeUInt32LE(4096, base + 48);
      } else {
        cmd.writeUInt32LE(0x5000, base + 32);
        cmd.writeUInt32LE(codeSize - 4096, base + 36);
        cmd.writeUInt32LE(4096, base + 40);
      }
    });
    return cmd;
  };
  commands.push(segment('__TEXT', 0, linkeditStart, ['__text']));
  commands.push(segment('__LINKEDIT', linkeditStart, linkeditSize, []));
  const uuid = le(24);
  uuid.writeUInt32LE(0x1b, 0);
  uuid.writeUInt32LE(24, 4);
  Buffer.from('00112233445566778899AABBCCDDEEFF', 'hex').copy(uuid, 8);
  commands.push(uuid);
  if (options.dylibId) {
    const name = Buffer.from(`${options.dylibId}\0`);
    const cmd = le(Math.ceil((24 + name.length) / 8) * 8);
    cmd.writeUInt32LE(0xd, 0);
    cmd.writeUInt32LE(cmd.length, 4);
    cmd.writeUInt32LE(24, 8);
    name.copy(cmd, 24);
    commands.push(cmd);
  }
  if (options.cryptId !== undefined) {
    const cmd = le(is64 ? 24 : 20);
    cmd.writeUInt32LE(is64 ? 0x2c : 0x21, 0);
    cmd.writeUInt32LE(cmd.length, 4);
    cmd.writeUInt32LE(PAGE, 8);
    cmd.writeUInt32LE(linkeditStart - PAGE, 12);
    cmd.writeUInt32LE(options.cryptId, 16);
    commands.push(cmd);
  }
  if (signed) {
    const cmd = le(16);
    cmd.writeUInt32LE(0x1d, 0);
    cmd.writeUInt32LE(16, 4);
    cmd.writeUInt32LE(signatureOffset, 8);
    cmd.writeUInt32LE(reserve, 12);
    commands.push(cmd);
  }
  const header = le(is64 ? 32 : 28);
  header.writeUInt32LE(is64 ? 0xfeedfacf : 0xfeedface, 0);
  header.writeInt32LE(options.cpuType ?? CPU_ARM64.cpuType, 4);
  header.writeInt32LE(options.cpuSubtype ?? CPU_ARM64.cpuSubtype, 8);
  header.writeUInt32LE(options.dylibId ? 6 : 2, 12);
  header.writeUInt32LE(commands.length, 16);
  header.writeUInt32LE(
    commands.reduce((sum, c) => sum + c.length, 0),
    20,
  );
  const file = Buffer.alloc(linkeditStart + linkeditSize);
  Buffer.concat([header, ...commands]).copy(file, 0);
  for (let at = 1024; at < codeSize; at += 1) file[at] = (at * 31 + 7) & 0xff;

  if (signed && options.signature)
    file.set(
      buildSignature(file.subarray(0, signatureOffset), options.signature, linkeditStart, reserve),
      signatureOffset,
    );
  return file;
}

function buildSignature(code: Buffer, options: SignatureOptions, execSegLimit: number, reserve: number): Buffer {
  const requirements = blob(CSMAGIC.requirements, Buffer.from([0, 0, 0, 0]));
  const entitlements = options.entitlementsXml ? blob(CSMAGIC.entitlements, options.entitlementsXml) : null;
  const special = new Map<number, Buffer | null>([
    [CSSLOT.infoSlot, options.infoPlist ?? null],
    [CSSLOT.requirements, requirements],
    [CSSLOT.resourceDir, null],
    [CSSLOT.application, null],
    [CSSLOT.entitlements, entitlements],
  ]);
  const primaryType = options.hashType ?? CS_HASHTYPE.sha256;
  const primary = codeDirectory(code, primaryType, options, special, execSegLimit);
  const entries: Array<[number, Buffer]> = [
    [CSSLOT.codeDirectory, primary],
    [CSSLOT.requirements, requirements],
  ];
  if (entitlements) entries.push([CSSLOT.entitlements, entitlements]);
  if (primaryType === CS_HASHTYPE.sha1)
    entries.push([
      CSSLOT.alternateCodeDirectories,
      codeDirectory(code, CS_HASHTYPE.sha256, options, special, execSegLimit),
    ]);
  const cms = options.signer
    ? signCms(primary, options.signer, { detached: true, signingTime: options.signingTime })
    : Buffer.alloc(0);
  entries.push([CSSLOT.signature, blob(CSMAGIC.blobWrapper, cms)]);
  const signature = superBlob(CSMAGIC.embeddedSignature, entries);
  if (signature.length > reserve) throw new Error('test signature larger than its reserve');
  return signature;
}

/** A FAT file of the given slices, each aligned to 2^14 as Xcode lays out arm slices. */
export function buildFat(slices: Array<{ bytes: Buffer; cpuType: number; cpuSubtype: number }>): Buffer {
  const align = 14;
  const header = Buffer.alloc(8 + slices.length * 20);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(slices.length, 4);
  const parts: Buffer[] = [];
  let offset = 1 << align;
  slices.forEach((slice, i) => {
    const base = 8 + i * 20;
    header.writeInt32BE(slice.cpuType, base);
    header.writeInt32BE(slice.cpuSubtype, base + 4);
    header.writeUInt32BE(offset, base + 8);
    header.writeUInt32BE(slice.bytes.length, base + 12);
    header.writeUInt32BE(align, base + 16);
    parts.push(slice.bytes);
    offset += Math.ceil(slice.bytes.length / (1 << align)) * (1 << align);
  });
  const file = Buffer.alloc(offset);
  header.copy(file, 0);
  let at = 1 << align;
  for (const part of parts) {
    part.copy(file, at);
    at += Math.ceil(part.length / (1 << align)) * (1 << align);
  }
  return file;
}
