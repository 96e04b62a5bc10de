import { isDeepStrictEqual } from 'node:util';
import {
  blobOfSlot,
  CSSLOT,
  mismatchedPageHashes,
  mismatchedPages,
  mismatchedSpecialSlots,
  readEmbeddedSignature,
  type CodeDirectory,
  type EmbeddedSignature,
} from './code-signature.ts';
import { verifyCodeDirectoryCms } from './cms-verify.ts';
import { decodeDerEntitlements } from './der-entitlements.ts';
import { MachOError, parseMachO, sliceBytes } from './macho.ts';
import { pageHashOf, type StreamedExecutable } from './streamed-macho.ts';

/** The files of its bundle a Mach-O's special slots refer to (null: none, as for a dylib). */
export interface MachOContext {
  infoPlist: Buffer | null;
  codeResources: Buffer | null;
}

/**
 * Re-reads a signed Mach-O the way iOS would judge it, slice by slice: every page hash of every
 * CodeDirectory, the special slots against the bundle's files and the signature's own blobs, the DER
 * entitlements against the XML ones, and the CMS over the CodeDirectories. Returns what failed, e.g.
 * `arm64: page 3 (CodeDirectory 0)`; empty means the binary is intact. Trust (chain, profile) is checked above it.
 */
export function verifyMachO(file: Buffer, context: MachOContext): string[] {
  let slices;
  try {
    slices = parseMachO(file).slices;
  } catch (error) {
    return [error instanceof MachOError ? error.message : 'not a Mach-O'];
  }
  const failures: string[] = [];
  for (const slice of slices) {
    const code = sliceBytes(file, slice);
    let signature;
    try {
      signature = readEmbeddedSignature(code, slice);
    } catch (error) {
      failures.push(`${slice.arch}: ${error instanceof Error ? error.message : 'unreadable signature'}`);
      continue;
    }
    failures.push(...checkSignature(slice.arch, signature, context, (directory) => mismatchedPages(code, directory)));
  }
  return failures;
}

/**
 * A large main executable checked from its streamed form (streamed-macho.ts): the page hashes taken as it streamed
 * by up to its signature's offset, the signature as kept.
 */
export function verifyStreamed(exe: StreamedExecutable, context: MachOContext): string[] {
  return checkSignature(exe.info.arch, exe.signature, context, (directory) =>
    directory.codeLimit !== exe.codeLimit || directory.pageSize !== 4096
      ? [-1]
      : mismatchedPageHashes(directory, (page) => pageHashOf(exe, directory.hashType, page)),
  );
}

/** One slice's signature: its pages (by `mismatched`), special slots, DER entitlements and CMS. */
function checkSignature(
  arch: string,
  signature: EmbeddedSignature | null,
  context: MachOContext,
  mismatched: (directory: CodeDirectory) => number[],
): string[] {
  const failures: string[] = [];
  if (!signature || signature.codeDirectories.length === 0) return [`${arch}: not signed`];
  const slots = new Map<number, Buffer | null>([
    [CSSLOT.infoSlot, context.infoPlist],
    [CSSLOT.requirements, blobOfSlot(signature, CSSLOT.requirements)],
    [CSSLOT.resourceDir, context.codeResources],
    [CSSLOT.entitlements, blobOfSlot(signature, CSSLOT.entitlements)],
    [CSSLOT.derEntitlements, blobOfSlot(signature, CSSLOT.derEntitlements)],
  ]);
  for (const directory of signature.codeDirectories) {
    for (const page of mismatched(directory)) failures.push(`${arch}: page ${page} (CodeDirectory ${directory.slot})`);
    for (const slot of mismatchedSpecialSlots(directory, slots))
      failures.push(`${arch}: special slot ${slot} (CodeDirectory ${directory.slot})`);
  }
  if (signature.derEntitlements && signature.entitlements) {
    let same = false;
    try {
      same = isDeepStrictEqual(decodeDerEntitlements(signature.derEntitlements), signature.entitlements);
    } catch {
      same = false;
    }
    if (!same) failures.push(`${arch}: DER entitlements differ from the XML ones`);
  }
  if (!signature.cms) failures.push(`${arch}: no CMS signature (ad-hoc)`);
  else
    for (const failure of verifyCodeDirectoryCms(signature.cms, signature.codeDirectories).failures)
      failures.push(`${arch}: CMS ${failure}`);
  return failures;
}
