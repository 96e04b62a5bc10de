import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { parsePlistDict, plistString } from '@release/inspect/plist.ts';
import { createDigester, type AppFiles } from './app-files.ts';
import { bundlesOf, mainAppRoot } from './bundle-signer.ts';

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

async function readWhole(zip: ZipFile, entry: Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await entryStream(zip, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const isDirectory = (entry: Entry) => entry.fileName.endsWith('/');
const isSymlink = (entry: Entry) => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

/** Names that are always loaded as bytes: plists the bundles are found by, dylibs to sign, profiles and seals. */
const ALWAYS_BYTES = /(\/Info\.plist|\.dylib|\/embedded\.mobileprovision|\/_CodeSignature\/CodeResources)$/;

/**
 * Loads an ipa's files for signing or verifying: bytes for what the signer reads, digests for the rest.
 * `onBytes` reports the uncompressed bytes seen so far (for progress).
 */
export async function loadAppFiles(
  archive: IpaArchive,
  onBytes: (done: number) => void = () => undefined,
): Promise<AppFiles> {
  const { zip, entries } = archive;
  const files: AppFiles = new Map();
  for (const entry of entries) {
    if (isDirectory(entry)) continue;
    if (isSymlink(entry) && entry.fileName.startsWith('Payload/'))
      throw new IpaArchiveError(`不支持包含符号链接的 ipa：${entry.fileName}`);
  }
  // Info.plists first: they name the executables that must be loaded too.
  const plists = entries.filter(
    (entry) => !isDirectory(entry) && ALWAYS_BYTES.test(entry.fileName) && entry.fileName.startsWith('Payload/'),
  );
  for (const entry of plists) files.set(entry.fileName, await readWhole(zip, entry));
  const executables = new Set<string>();
  const root = mainAppRoot(files);
  if (root) {
    for (const bundle of bundlesOf(files, root)) {
      const info = files.get(`${bundle}Info.plist`);
      const dict = Buffer.isBuffer(info) ? parsePlistDict(info) : null;
      const executable = dict ? plistString(dict, 'CFBundleExecutable') : null;
      if (executable) executables.add(`${bundle}${executable}`);
    }
  }
  let done = 0;
  for (const entry of entries) {
    if (isDirectory(entry)) continue;
    if (files.has(entry.fileName)) {
      done += entry.uncompressedSize;
    } else if (executables.has(entry.fileName)) {
      files.set(entry.fileName, await readWhole(zip, entry));
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

export const totalBytes = (archive: IpaArchive) =>
  archive.entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
export { isDirectory as isDirectoryEntry };
