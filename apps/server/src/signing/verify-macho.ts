import { isDeepStrictEqual } from 'node:util';
import {
  blobOfSlot,
  CSSLOT,
  mismatchedPages,
  mismatchedSpecialSlots,
  readEmbeddedSignature,
} from './code-signature.ts';
import { verifyCodeDirectoryCms } from './cms-verify.ts';
import { decodeDerEntitlements } from './der-entitlements.ts';
import { MachOError, parseMachO, sliceBytes } from './macho.ts';

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
    if (!signature || signature.codeDirectories.length === 0) {
      failures.push(`${slice.arch}: not signed`);
      continue;
    }
    const slots = new Map<number, Buffer | null>([
      [CSSLOT.infoSlot, context.infoPlist],
      [CSSLOT.requirements, blobOfSlot(signature, CSSLOT.requirements)],
      [CSSLOT.resourceDir, context.codeResources],
      [CSSLOT.entitlements, blobOfSlot(signature, CSSLOT.entitlements)],
      [CSSLOT.derEntitlements, blobOfSlot(signature, CSSLOT.derEntitlements)],
    ]);
    for (const directory of signature.codeDirectories) {
      for (const page of mismatchedPages(code, directory))
        failures.push(`${slice.arch}: page ${page} (CodeDirectory ${directory.slot})`);
      for (const slot of mismatchedSpecialSlots(directory, slots))
        failures.push(`${slice.arch}: special slot ${slot} (CodeDirectory ${directory.slot})`);
    }
    if (signature.derEntitlements && signature.entitlements) {
      let same = false;
      try {
        same = isDeepStrictEqual(decodeDerEntitlements(signature.derEntitlements), signature.entitlements);
      } catch {
        same = false;
      }
      if (!same) failures.push(`${slice.arch}: DER entitlements differ from the XML ones`);
    }
    if (!signature.cms) failures.push(`${slice.arch}: no CMS signature (ad-hoc)`);
    else
      for (const failure of verifyCodeDirectoryCms(signature.cms, signature.codeDirectories).failures)
        failures.push(`${slice.arch}: CMS ${failure}`);
  }
  return failures;
}
