import { createHash } from 'node:crypto';
import { isModuleFileName } from './harmony-app-inspector.ts';
import { inspectionFailure } from './inspection-error.ts';
import { openZipIndex } from './zip-index.ts';

const LOCAL_HEADER_SIZE = 30;
const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const CHUNK = 1024 * 1024;

/**
 * Where each HarmonyOS module of a stored file lies, for serving it on its own (a byte range of the file) and for
 * the install manifest's packageHash: a .hap or .hsp is the whole file; a packed .app holds its modules as entries,
 * which must be stored (not deflated) to be served as a range. Hashed a megabyte at a time.
 */
export interface ModuleFile {
  fileName: string;
  offset: number;
  size: number;
  sha256: string;
}

/** The modules of a packed .app, in name order; a deflated module (which no range can serve) is refused. */
export async function locateAppModules(filePath: string): Promise<ModuleFile[]> {
  const zip = await openZipIndex(filePath);
  try {
    const modules: ModuleFile[] = [];
    for (const name of [...zip.entries.keys()].filter(isModuleFileName).sort()) {
      const entry = zip.locate(name);
      if (!entry) continue;
      if (entry.method !== 0 || entry.compressedSize !== entry.uncompressedSize)
        throw inspectionFailure('metadataUnreadable', `.app 中的模块 ${name} 是压缩存放的，无法单独提供下载`);
      const header = await zip.readRaw(entry.localHeaderOffset, LOCAL_HEADER_SIZE);
      if (header.length < LOCAL_HEADER_SIZE || header.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE)
        throw inspectionFailure('corrupt');
      const offset = entry.localHeaderOffset + LOCAL_HEADER_SIZE + header.readUInt16LE(26) + header.readUInt16LE(28);
      if (offset + entry.compressedSize > zip.fileSize) throw inspectionFailure('corrupt');
      const hash = createHash('sha256');
      for (let at = 0; at < entry.compressedSize; at += CHUNK)
        hash.update(await zip.readRaw(offset + at, Math.min(CHUNK, entry.compressedSize - at)));
      modules.push({ fileName: name, offset, size: entry.compressedSize, sha256: hash.digest('hex') });
    }
    return modules;
  } finally {
    await zip.close();
  }
}
