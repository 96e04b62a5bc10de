import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { isUploadedTogether, PACKAGE_KIND_TABLE, type PackageKind } from '@release/contract';
import { type HapInspection, locateAppModules, type ModuleFile, PackageInspectionError } from '@release/inspect';
import { withLocalFile } from '../../storage/local-copy.ts';
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

/** Each module of a stored HarmonyOS version: its name, where it lies in the file, size and SHA-256 (the manifest's packageHash). */
export type PackedModuleFile = ModuleFile;

/**
 * The modules of a stored HarmonyOS build (`metadata.moduleFiles`), for serving each and for its install manifest:
 * a .hap/.hsp is itself one module (hashed as it streams from the store), a packed .app is read for its entries.
 * Other kinds have none.
 */
export async function moduleFilesOf(
  blobs: ConfiguredBlobStore,
  file: { fileKey: string; fileName: string; kind: PackageKind },
): Promise<ModuleFile[] | undefined> {
  // A packed .app whose modules are deflated (not one we packed) is kept; its modules are not served one by one.
  if (file.kind === 'app')
    return withLocalFile(blobs, file.fileKey, (path) => locateAppModules(path)).catch((error: unknown) => {
      if (error instanceof PackageInspectionError) return undefined;
      throw error;
    });
  if (!PACKAGE_KIND_TABLE[file.kind].uploadedTogether) return undefined;
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of await blobs.read(file.fileKey)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return [{ fileName: file.fileName.split(/[\\/]/).pop() as string, offset: 0, size, sha256: hash.digest('hex') }];
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

/** Stores the modules of one version as a packed .app (pack.info, then each module stored uncompressed at the root). */
export async function packModuleSet(
  blobs: ConfiguredBlobStore,
  targetKey: string,
  files: readonly ModuleUpload[],
  inspection: HapInspection,
): Promise<{ size: number }> {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  const stored = blobs.put(targetKey, out, { contentType: 'application/octet-stream' });
  const feed = (async () => {
    zip.addBuffer(Buffer.from(packInfoOf(inspection, files)), 'pack.info', { compress: false });
    for (const file of files) {
      const source: Readable = await blobs.read(file.fileKey);
      const done = new Promise<void>((resolve, reject) => {
        source.once('end', resolve);
        source.once('error', reject);
      });
      zip.addReadStream(source, entryNameOf(file.fileName), { compress: false });
      await done;
    }
    zip.end();
  })();
  feed.catch((error: unknown) => out.destroy(error as Error));
  const [{ size }] = await Promise.all([stored, feed]);
  return { size };
}
