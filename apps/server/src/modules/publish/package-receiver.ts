import {
  assertOneAppVersion,
  combineModules,
  type HapInspection,
  type PackageInspection,
  PackageInspectionError,
} from '@release/inspect';
import { AppError } from '../../http/app-error.ts';
import type { ConfiguredBlobStore } from '../../storage/create-blob-store.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import {
  checkModuleNames,
  moduleFilesOf,
  ModuleSetMessages,
  packedFileNameOf,
  packedKeyOf,
  packModuleSet,
  type PackedModuleFile,
} from './harmony-module-set.ts';

/**
 * What upload_app registers: one uploaded package, or the modules of one HarmonyOS version uploaded together
 * (packed into one .app). Inspected here; what is not a usable package is refused and its upload removed.
 */
export function createPackageReceiver(deps: {
  uploads: UploadsService;
  versions: Pick<VersionsDirectory, 'findByFileKey'>;
  blobs: ConfiguredBlobStore;
  inspect: (fileKey: string, fileName: string) => Promise<PackageInspection>;
}) {
  const { uploads, versions, blobs, inspect } = deps;

  /** A package to register: the version its file already is, or the file inspected with what to do once it is one. */
  type Received =
    | { version: VersionRecord }
    | {
        inspection: PackageInspection;
        fileKey: string;
        fileName: string;
        /** Stores the file where it is not yet (a set's packed .app): its size, and the modules in it. */
        write: () => Promise<{ fileSize: number; moduleFiles?: PackedModuleFile[] }>;
        /** The version was not made: what `write` stored goes, unless a version has it. */
        abandon: () => Promise<void>;
        /** Marks the uploads used once the version exists (a set's modules are then in its .app and go). */
        settle: () => Promise<void>;
      };

  /** Inspects, and refuses for good (the upload removed) what is not a usable package. */
  async function inspectOrDiscard(
    sessions: { id: string; file_key: string }[],
    work: () => Promise<PackageInspection>,
  ): Promise<PackageInspection> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof PackageInspectionError) {
        // A file that is not a usable package never becomes a version, and is not kept.
        for (const session of sessions) await uploads.discard(session.id, session.file_key);
        throw AppError.badRequest(error.message);
      }
      throw error;
    }
  }

  /**
   * `inspected`: inspections already under way by file key (the direct upload's, run while its bytes were flushed),
   * taken in place of inspecting the stored file again.
   */
  async function receive(
    userId: number,
    s3Url: string,
    moduleKeys: readonly string[],
    inspected: ReadonlyMap<string, Promise<PackageInspection>> = new Map(),
  ): Promise<Received> {
    const inspectOnce = (fileKey: string, fileName: string) => inspected.get(fileKey) ?? inspect(fileKey, fileName);
    if (moduleKeys.length > 0) return receiveModuleSet(userId, [s3Url, ...moduleKeys], inspectOnce);
    const already = await versions.findByFileKey(s3Url);
    if (already) return { version: already };
    const session = await uploads.completedUpload(userId, s3Url);
    if (session.purpose !== 'package') throw AppError.badRequest('请上传安装包文件');
    const inspection = await inspectOrDiscard([session], () => inspectOnce(session.file_key, session.file_name));
    return {
      inspection,
      fileKey: session.file_key,
      fileName: session.file_name,
      write: async () => ({
        fileSize: session.file_size ?? inspection.fileSize,
        moduleFiles: await moduleFilesOf(blobs, {
          fileKey: session.file_key,
          fileName: session.file_name,
          kind: inspection.kind,
        }),
      }),
      abandon: async () => undefined,
      settle: async () => {
        await uploads.markRegistered(session.id);
      },
    };
  }

  /**
   * Several HarmonyOS modules (.hap / .hsp) uploaded together are one version: each is inspected, they must be one
   * version of one app (assertOneAppVersion names the one that is not), and they are stored together as a packed
   * .app beside the first, which the install page serves module by module.
   */
  async function receiveModuleSet(
    userId: number,
    keys: string[],
    inspect: (fileKey: string, fileName: string) => Promise<PackageInspection>,
  ): Promise<Received> {
    const packedKey = packedKeyOf(keys[0] as string);
    const already = await versions.findByFileKey(packedKey);
    if (already) return { version: already };
    const sessions: Awaited<ReturnType<UploadsService['completedUpload']>>[] = [];
    for (const key of new Set(keys)) {
      const session = await uploads.completedUpload(userId, key);
      if (session.purpose !== 'package') throw AppError.badRequest('请上传安装包文件');
      sessions.push(session);
    }
    const files = sessions.map((session) => ({ fileName: session.file_name, fileKey: session.file_key }));
    checkModuleNames(files);
    const inspection = await inspectOrDiscard(sessions, async () => {
      const modules = [];
      for (const file of files) {
        const inspected = await inspect(file.fileKey, file.fileName);
        if (inspected.kind !== 'hap' && inspected.kind !== 'hsp')
          throw new PackageInspectionError('moduleMismatch', ModuleSetMessages.notModule(file.fileName));
        modules.push({ name: file.fileName.split(/[\\/]/).pop() as string, inspection: inspected });
      }
      assertOneAppVersion(modules);
      return combineModules('app', modules, 0);
    });
    return {
      inspection,
      fileKey: packedKey,
      fileName: packedFileNameOf(inspection as HapInspection),
      write: async () => {
        const packed = await packModuleSet(blobs, packedKey, files, inspection as HapInspection);
        inspection.fileSize = packed.size;
        const moduleFiles = await moduleFilesOf(blobs, { fileKey: packedKey, fileName: packedKey, kind: 'app' });
        return { fileSize: packed.size, moduleFiles };
      },
      abandon: async () => {
        if (!(await versions.findByFileKey(packedKey))) await blobs.delete(packedKey).catch(() => undefined);
      },
      settle: async () => {
        for (const session of sessions)
          if (await uploads.markRegistered(session.id)) await blobs.delete(session.file_key).catch(() => undefined);
      },
    };
  }

  return { receive };
}
