import fs from 'node:fs';
import type { Entry } from 'yauzl';
import { isBytes } from './app-files.ts';
import { mainAppRoot, resignApp, type BundleSigningInput, type SignedBundle } from './bundle-signer.ts';
import { entryStream, loadAppFiles, loadHeldFiles, openIpa, totalBytes, type KnownEntry } from './ipa-archive.ts';
import { copyResources, sha256, writeHeld } from './ipa-copy.ts';
import {
  applyResignOptions,
  codeDirectoryChange,
  givenEntitlements,
  removedFolders,
  type ResignChange,
  type ResignOptions,
} from './resign-options.ts';
import { isStreamed, signedSize, toNewSignature, toPresentSignature, withSignedDigest } from './streamed-macho.ts';
import { ZipOut } from './zip-out.ts';
import { verifyApp } from './verify-app.ts';

/**
 * Re-signs an ipa file into a new ipa file, streaming: resources are hashed as they pass and copied compressed as
 * they are (no inflate-and-deflate-again), only binaries, plists, profiles and seals are held and written anew.
 * The written file is read back and must pass the built-in verifier, or the re-signing fails.
 */
export type ResignStage = 'read' | 'sign' | 'write' | 'verify';
/** `done` of `total` bytes of the stage (both 0 for a stage not counted in bytes). */
export type ResignProgress = (stage: ResignStage, percent: number, done: number, total: number) => void;

export class VerificationError extends Error {
  constructor(readonly failures: string[]) {
    super(`verifier: ${failures.slice(0, 5).join('; ')}`);
    this.name = 'VerificationError';
  }
}

/** Where each stage sits in the overall percentage. */
const SPAN: Record<ResignStage, [number, number]> = {
  read: [0, 65],
  sign: [65, 70],
  write: [70, 85],
  verify: [85, 100],
};

function reporter(onProgress: ResignProgress, stage: ResignStage, total: number) {
  const [from, to] = SPAN[stage];
  let last = -1;
  return (done: number) => {
    const percent = Math.floor(from + ((to - from) * Math.min(done, total)) / Math.max(1, total));
    if (percent === last) return;
    last = percent;
    onProgress(stage, percent, Math.min(done, total), total);
  };
}

export interface ResignedIpa {
  signed: SignedBundle[];
  /** What the options changed (bundle id, name, version, build, removals). */
  changes: ResignChange[];
  /** Size of the written ipa. */
  size: number;
}

export async function resignIpa(
  sourcePath: string,
  outputPath: string,
  input: BundleSigningInput,
  onProgress: ResignProgress = () => undefined,
  options: ResignOptions = {},
): Promise<ResignedIpa> {
  const source = await openIpa(sourcePath);
  const out = new ZipOut(outputPath);
  let signed: SignedBundle[];
  let copied: Map<string, KnownEntry>;
  let changes: ResignChange[];
  try {
    // A large executable streams by (its page hashes kept), and streams again when written: never held whole.
    const files = await loadHeldFiles(source, toNewSignature);
    const before = new Map([...files].map(([name, file]) => [name, isBytes(file) ? sha256(file) : '']));
    const root = mainAppRoot(files);
    changes = applyResignOptions(files, options);
    const removed = root ? removedFolders(root, options) : [];
    const skip = (name: string) => removed.some((folder) => name.startsWith(folder));
    const resourceBytes = source.entries.reduce(
      (sum, entry) => sum + (files.has(entry.fileName) || skip(entry.fileName) ? 0 : entry.uncompressedSize),
      0,
    );
    copied = await copyResources(source, files, out, reporter(onProgress, 'read', resourceBytes), skip);
    for (const [name, known] of copied) files.set(name, known.digest);
    onProgress('sign', SPAN.sign[0], 0, 0);
    const entitlements = givenEntitlements(options);
    const entryNamed = new Map(source.entries.map((entry) => [entry.fileName, entry]));
    signed = await resignApp(files, {
      ...input,
      hashesByMinimumOs: options.hashesByMinimumOs === true,
      entitlements,
      // A streamed nested executable, signed, streams once more for the seal of the bundle around it.
      digestSigned: (name, exe) => withSignedDigest(exe, entryStream(source, entryNamed.get(name) as Entry)),
    });
    if (entitlements) changes.push({ what: 'entitlements', from: null, to: String(Object.keys(entitlements).length) });
    const hashChange = options.hashesByMinimumOs ? codeDirectoryChange(signed) : null;
    if (hashChange) changes.push(hashChange);
    const written = [...files.values()].reduce(
      (sum, file) => sum + (isBytes(file) ? file.length : isStreamed(file) ? signedSize(file) : 0),
      0,
    );
    await writeHeld(source, files, before, out, reporter(onProgress, 'write', written));
    // The signed binaries are written: let them go before the verifier reads them back.
    files.clear();
    await out.finish();
  } catch (error) {
    out.abort();
    throw error;
  } finally {
    source.close();
  }
  // The verifier reads what was written, not what was meant to be written: the signed files whole, the copied
  // ones as their compressed bytes (which must be those that were hashed).
  const written = await openIpa(outputPath);
  try {
    const files = await loadAppFiles(
      written,
      reporter(onProgress, 'verify', totalBytes(written)),
      copied,
      toPresentSignature,
    );
    const failures = verifyApp(files);
    if (failures.length > 0) throw new VerificationError(failures);
  } finally {
    written.close();
  }
  onProgress('verify', 100, 0, 0);
  return { signed, changes, size: (await fs.promises.stat(outputPath)).size };
}
