import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { parsePlistDict, plistString } from '@release/inspect/plist.ts';
import { crc32 } from 'node:zlib';
import { allocWithRoom, createDigester, type AppFiles, type FileDigest } from './app-files.ts';
import { bundlesOf, mainAppRoot } from './bundle-signer.ts';
import { readStreamed, STREAM_FROM, type CodeLimitOf } from './streamed-macho.ts';

/**
 * Reading an ipa for the signer without holding it whole: the central directory is read once (yauzl, names
 * checked against zip-slip, sizes and CRC-32 checked while streaming), then only what signing needs is loaded
 * (every Info.plist, the bundles' executables, loose dylibs, profiles, seals); every other file streams past
 * and is kept as its digests.
 */
export interface IpaArchive {
  zip: ZipFile;
  /** Entries in archive order (the first of duplicate names only). */
  entries: Entry[];
  close(): void;
}

export class IpaArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IpaArchiveError';
  }
}

export async function openIpa(filePath: string): Promise<IpaArchive> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(
      filePath,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (error, opened) =>
        error ? reject(new IpaArchiveError(`不是有效的 ipa 文件：${error.message}`)) : resolve(opened),
    ),
  );
  const entries: Entry[] = [];
  const seen = new Set<string>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        if (!seen.has(entry.fileName)) {
          seen.add(entry.fileName);
          entries.push(entry);
        }
        zip.readEntry();
      });
      zip.once('end', resolve);
      zip.once('error', (error: Error) => reject(new IpaArchiveError(`ipa 文件已损坏：${error.message}`)));
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  return { zip, entries, close: () => zip.close() };
}

export function entryStream(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) =>
      error ? reject(new IpaArchiveError(`ipa 文件已损坏：${error.message}`)) : resolve(stream),
    ),
  );
}

/**
 * An entry's bytes, inflated into one buffer of the declared size (yauzl stops an entry that lies about it); with
 * `room`, followed by room for the signer to sign it where it is.
 */
async function readWhole(zip: ZipFile, entry: Entry, room = false): Promise<Buffer> {
  const bytes = room ? allocWithRoom(entry.uncompressedSize) : Buffer.allocUnsafe(entry.uncompressedSize);
  let at = 0;
  for await (const chunk of await entryStream(zip, entry)) {
    (chunk as Buffer).copy(bytes, at);
    at += (chunk as Buffer).length;
  }
  return bytes;
}

const isDirectory = (entry: Entry) => entry.fileName.endsWith('/');
const isSymlink = (entry: Entry) => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

/** Names that are always loaded as bytes: plists the bundles are found by, dylibs to sign, profiles and seals. */
const ALWAYS_BYTES = /(\/Info\.plist|\.dylib|\/embedded\.mobileprovision|\/_CodeSignature\/CodeResources)$/;

/** Refuses links inside the app (a signed app has none that the seal could follow). */
function checkEntries(entries: Entry[]): void {
  for (const entry of entries) {
    if (isDirectory(entry)) continue;
    if (isSymlink(entry) && entry.fileName.startsWith('Payload/'))
      throw new IpaArchiveError(`不支持包含符号链接的 ipa：${entry.fileName}`);
  }
}

/**
 * The files the signer reads as bytes: every Info.plist, loose dylib, profile and seal, then the bundles'
 * executables named by those Info.plists. Everything else is a resource, needed only as its digests.
 */
export async function loadHeldFiles(
  archive: IpaArchive,
  /** Given: a bundle's executable, when large and thin, is streamed (hashed up to this limit), not held. */
  streamTo: CodeLimitOf | null = null,
  /** Streamed nested executables also get their whole digests (to verify the seal of the bundle around them). */
  digestNested = false,
): Promise<AppFiles> {
  const { zip, entries } = archive;
  checkEntries(entries);
  const files: AppFiles = new Map();
  // Info.plists first: they name the executables that must be loaded too.
  const plists = entries.filter(
    (entry) => !isDirectory(entry) && ALWAYS_BYTES.test(entry.fileName) && entry.fileName.startsWith('Payload/'),
  );
  for (const entry of plists) files.set(entry.fileName, await readWhole(zip, entry, entry.fileName.endsWith('.dylib')));
  const root = mainAppRoot(files);
  const executables = new Set<string>();
  let mainExecutable: string | null = null;
  if (root) {
    for (const bundle of bundlesOf(files, root)) {
      const info = files.get(`${bundle}Info.plist`);
      const dict = Buffer.isBuffer(info) ? parsePlistDict(info) : null;
      const executable = dict ? plistString(dict, 'CFBundleExecutable') : null;
      if (executable) executables.add(`${bundle}${executable}`);
      if (executable && bundle === root) mainExecutable = `${bundle}${executable}`;
    }
  }
  for (const entry of entries) {
    if (!executables.has(entry.fileName) || isDirectory(entry)) continue;
    // A nested bundle's executable is a file of its parent's seal: when streamed, its whole digests are taken too
    // (the re-signer takes those of the signed bytes after signing it).
    const nested = entry.fileName !== mainExecutable;
    const streamed =
      streamTo && entry.uncompressedSize >= STREAM_FROM
        ? await readStreamed(
            (await entryStream(zip, entry)) as AsyncIterable<Buffer>,
            entry.uncompressedSize,
            streamTo,
            nested && digestNested,
          )
        : null;
    files.set(entry.fileName, streamed ?? (await readWhole(zip, entry, true)));
  }
  return files;
}

/**
 * Loads an ipa's files for signing or verifying: bytes for what the signer reads, digests for the rest.
 * `onBytes` reports the uncompressed bytes seen so far (for progress). `known` are entries whose digests were
 * taken before (re-signing copied them compressed as they were): their compressed bytes are only checked to be
 * those same bytes (CRC-32 of the raw data and the sizes), not inflated and hashed again.
 */
export async function loadAppFiles(
  archive: IpaArchive,
  onBytes: (done: number) => void = () => undefined,
  known: ReadonlyMap<string, KnownEntry> = new Map(),
  streamTo: CodeLimitOf | null = null,
): Promise<AppFiles> {
  const { zip, entries } = archive;
  const files = await loadHeldFiles(archive, streamTo, true);
  let done = 0;
  for (const entry of entries) {
    if (isDirectory(entry)) continue;
    const seen = known.get(entry.fileName);
    if (files.has(entry.fileName)) {
      done += entry.uncompressedSize;
    } else if (seen) {
      files.set(entry.fileName, await checkKnown(zip, entry, seen));
      done += entry.uncompressedSize;
    } else {
      const digester = createDigester();
      for await (const chunk of await entryStream(zip, entry)) {
        digester.update(chunk as Buffer);
        done += (chunk as Buffer).length;
        onBytes(done);
      }
      files.set(entry.fileName, digester.digest());
    }
    onBytes(done);
  }
  return files;
}

/** An entry copied compressed as it was: its digests, and the CRC-32 of its compressed bytes. */
export interface KnownEntry {
  digest: FileDigest;
  rawCrc32: number;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
}

async function checkKnown(zip: ZipFile, entry: Entry, known: KnownEntry): Promise<FileDigest> {
  let rawCrc = 0;
  for await (const chunk of await rawEntryStream(zip, entry)) rawCrc = crc32(chunk as Buffer, rawCrc);
  const same =
    rawCrc >>> 0 === known.rawCrc32 >>> 0 &&
    entry.compressedSize === known.compressedSize &&
    entry.uncompressedSize === known.uncompressedSize &&
    entry.crc32 >>> 0 === known.crc32 >>> 0;
  if (!same) throw new IpaArchiveError(`ipa 文件已损坏：${entry.fileName}`);
  return known.digest;
}

/** An entry's data exactly as stored (compressed or not). */
export function rawEntryStream(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  if (entry.isEncrypted()) return Promise.reject(new IpaArchiveError(`不支持加密的 ipa：${entry.fileName}`));
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, { decodeFileData: false }, (error, stream) =>
      error ? reject(new IpaArchiveError(`ipa 文件已损坏：${error.message}`)) : resolve(stream),
    ),
  );
}

export const totalBytes = (archive: IpaArchive) =>
  archive.entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
export { isDirectory as isDirectoryEntry, readWhole as readEntry };
