import { createHash } from 'node:crypto';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { isUploadedTogether } from '@release/contract';
import type { HapInspection } from '@release/inspect';
import yazl from 'yazl';
import { AppError } from '../../http/app-error.ts';
import type { ConfiguredBlobStore } from '../../storage/create-blob-store.ts';

/** At most this many modules go up together as one HarmonyOS version (entry + features + shared modules). */
export const MAX_MODULE_FILES = 32;

export const ModuleSetMessages = {
  notModule: (name: string) =>
    `${name} 不是 HarmonyOS 模块：一起上传的多个文件须都是 .hap / .hsp（同一应用的同一版本）`,
  sameName: (name: string) => `有两个模块文件都叫 ${name}，请改名后重新上传`,
  tooMany: `一次最多上传 ${MAX_MODULE_FILES} 个模块`,
} as const;

/** A module file of a set, as uploaded. */
export interface ModuleUpload {
  fileName: string;
  fileKey: string;
}

/** A module inside the packed .app a set is stored as: its file name there, size and SHA-256 (the manifest's packageHash). */
export interface PackedModuleFile {
  fileName: string;
  size: number;
  sha256: string;
}

/** The names in a set must each be a .hap or .hsp, and each once (they become the .app's entries). */
export function checkModuleNames(files: readonly ModuleUpload[]): void {
  if (files.length > MAX_MODULE_FILES) throw AppError.badRequest(ModuleSetMessages.tooMany);
  const seen = new Set<string>();
  for (const file of files) {
    if (!isUploadedTogether(file.fileName)) throw AppError.badRequest(ModuleSetMessages.notModule(file.fileName));
    const name = entryNameOf(file.fileName);
    if (seen.has(name.toLowerCase())) throw AppError.badRequest(ModuleSetMessages.sameName(name));
    seen.add(name.toLowerCase());
  }
}

/** A file name as an entry at the .app's root: its last path part. */
function entryNameOf(fileName: string): string {
  return fileName.split(/[\\/]/).pop() || 'module.hap';
}

/** Where a set's packed .app is stored: beside its first module, so the same request always names the same file. */
export function packedKeyOf(firstModuleKey: string): string {
  return `${firstModuleKey.replace(/\.[^./]*$/, '')}.app`;
}

/** The packed .app's file name: `<bundle name>-<version name>.app`. */
export function packedFileNameOf(inspection: HapInspection): string {
  const name = [inspection.bundleName, inspection.versionName].filter(Boolean).join('-');
  return `${name.replace(/[^A-Za-z0-9._-]/g, '_') || 'harmony'}.app`;
}

/** pack.info as DevEco writes it, the fields the set's modules tell (docs/harmonyos.md). */
function packInfoOf(inspection: HapInspection, files: readonly ModuleUpload[]): string {
  const byModule = inspection.modules;
  return JSON.stringify(
    {
      summary: {
        app: {
          bundleName: inspection.bundleName,
          bundleType: inspection.bundleType ?? 'app',
          version: { code: inspection.versionCode, name: inspection.versionName },
        },
        modules: byModule.map((module) => ({
          deviceType: module.deviceTypes,
          distro: { moduleName: module.name, moduleType: module.type },
        })),
      },
      packages: files.map((file) => {
        const module = byModule.find((m) => m.fileName === entryNameOf(file.fileName));
        return {
          name: entryNameOf(file.fileName).replace(/\.[^.]*$/, ''),
          moduleType: module?.type ?? null,
          deviceType: module?.deviceTypes ?? [],
          deliveryWithInstall: true,
        };
      }),
    },
    null,
    2,
  );
}

/**
 * Stores the modules of one version as a packed .app (pack.info, then each module stored uncompressed at the root),
 * read from the blob store one after another and hashed on the way. Answers the size written and each module's hash.
 */
export async function packModuleSet(
  blobs: ConfiguredBlobStore,
  targetKey: string,
  files: readonly ModuleUpload[],
  inspection: HapInspection,
): Promise<{ size: number; modules: PackedModuleFile[] }> {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  const modules: PackedModuleFile[] = [];
  const stored = blobs.put(targetKey, out, { contentType: 'application/octet-stream' });
  const feed = (async () => {
    const packInfo = Buffer.from(packInfoOf(inspection, files));
    zip.addBuffer(packInfo, 'pack.info', { compress: false });
    for (const file of files) {
      const hash = createHash('sha256');
      let size = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      });
      const source: Readable = await blobs.read(file.fileKey);
      source.once('error', (error: Error) => counted.destroy(error));
      const done = new Promise<void>((resolve, reject) => {
        counted.once('end', resolve);
        counted.once('error', reject);
      });
      zip.addReadStream(source.pipe(counted), entryNameOf(file.fileName), { compress: false });
      await done;
      modules.push({ fileName: entryNameOf(file.fileName), size, sha256: hash.digest('hex') });
    }
    zip.end();
  })();
  feed.catch((error: unknown) => out.destroy(error as Error));
  const [{ size }] = await Promise.all([stored, feed]);
  return { size, modules };
}
