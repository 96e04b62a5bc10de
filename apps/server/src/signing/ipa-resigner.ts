import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { isBytes, type AppFiles } from './app-files.ts';
import { resignApp, type BundleSigningInput, type SignedBundle } from './bundle-signer.ts';
import { entryStream, isDirectoryEntry, loadAppFiles, openIpa, totalBytes, type IpaArchive } from './ipa-archive.ts';
import { verifyApp } from './verify-app.ts';

/**
 * Re-signs an ipa file into a new ipa file, streaming: resources are hashed as they pass and copied from the
 * source archive entry by entry, only binaries, plists, profiles and seals are held. The written file is read
 * back and must pass the built-in verifier, or the re-signing fails.
 */
export type ResignStage = 'read' | 'sign' | 'write' | 'verify';
export type ResignProgress = (stage: ResignStage, percent: number) => void;

export class VerificationError extends Error {
  constructor(readonly failures: string[]) {
    super(`verifier: ${failures.slice(0, 5).join('; ')}`);
    this.name = 'VerificationError';
  }
}

/** Where each stage sits in the overall percentage. */
const SPAN: Record<ResignStage, [number, number]> = {
  read: [0, 35],
  sign: [35, 45],
  write: [45, 80],
  verify: [80, 100],
};

function reporter(onProgress: ResignProgress, stage: ResignStage, total: number) {
  const [from, to] = SPAN[stage];
  let last = -1;
  return (done: number) => {
    const percent = Math.floor(from + ((to - from) * Math.min(done, total)) / Math.max(1, total));
    if (percent === last) return;
    last = percent;
    onProgress(stage, percent);
  };
}

/** Writes the archive again: signed or new files from memory, everything else copied from the source as a stream. */
async function writeIpa(
  source: IpaArchive,
  files: AppFiles,
  outputPath: string,
  onBytes: (done: number) => void,
): Promise<void> {
  const out = new yazl.ZipFile();
  const written = new Set<string>();
  for (const entry of source.entries) {
    const name = entry.fileName;
    const mode = entry.externalFileAttributes >>> 16 || undefined;
    const mtime = entry.getLastModDate();
    written.add(name);
    if (isDirectoryEntry(entry)) {
      out.addEmptyDirectory(name, { mtime, ...(mode ? { mode } : {}) });
      continue;
    }
    const file = files.get(name);
    if (isBytes(file)) {
      out.addBuffer(file, name, { mtime, compress: true, ...(mode ? { mode } : {}) });
      continue;
    }
    out.addReadStreamLazy(
      name,
      { mtime, compress: entry.compressionMethod !== 0, size: entry.uncompressedSize, ...(mode ? { mode } : {}) },
      (callback) => {
        entryStream(source.zip, entry).then(
          (stream) => callback(null, stream),
          (error: unknown) => callback(error, undefined as never),
        );
      },
    );
  }
  // Seals and profiles the signer added where the source had none.
  for (const [name, file] of files)
    if (!written.has(name) && isBytes(file)) out.addBuffer(file, name, { compress: true });
  out.end();
  let done = 0;
  out.outputStream.on('data', (chunk: Buffer) => {
    done += chunk.length;
    onBytes(done);
  });
  await pipeline(out.outputStream, fs.createWriteStream(outputPath));
}

export interface ResignedIpa {
  signed: SignedBundle[];
  /** Size of the written ipa. */
  size: number;
}

export async function resignIpa(
  sourcePath: string,
  outputPath: string,
  input: BundleSigningInput,
  onProgress: ResignProgress = () => undefined,
): Promise<ResignedIpa> {
  const source = await openIpa(sourcePath);
  let signed: SignedBundle[];
  try {
    const total = totalBytes(source);
    const files = await loadAppFiles(source, reporter(onProgress, 'read', total));
    onProgress('sign', SPAN.sign[0]);
    signed = resignApp(files, input);
    // Compressed output is smaller than the input's uncompressed size: the bar moves by the source's size.
    const compressedTotal = source.entries.reduce((sum, entry) => sum + entry.compressedSize, 0);
    await writeIpa(source, files, outputPath, reporter(onProgress, 'write', compressedTotal));
  } finally {
    source.close();
  }
  // The verifier reads what was written, not what was meant to be written.
  const written = await openIpa(outputPath);
  try {
    const files = await loadAppFiles(written, reporter(onProgress, 'verify', totalBytes(written)));
    const failures = verifyApp(files);
    if (failures.length > 0) throw new VerificationError(failures);
  } finally {
    written.close();
  }
  onProgress('verify', 100);
  return { signed, size: (await fs.promises.stat(outputPath)).size };
}
