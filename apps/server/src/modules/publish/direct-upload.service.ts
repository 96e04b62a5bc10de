import { Transform, type Readable } from 'node:stream';
import { AppMessages, type DirectUploadFields, isUploadedTogether } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ConfiguredBlobStore } from '../../storage/create-blob-store.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AppsLookup } from '../apps/apps-directory.ts';
import type { PackageRegistrationService, PreparedPackage } from './package-registration.service.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import type { UploadSessionsDirectory } from '../uploads/upload-sessions-directory.ts';
import { UploadMessages, type UploadsService } from '../uploads/uploads.service.ts';

export interface DirectUploadDeps {
  uploads: UploadsService;
  sessions: UploadSessionsDirectory;
  apps: Pick<AppsLookup, 'findByPath' | 'findById'>;
  versions: Pick<VersionsDirectory, 'findByFileKey'>;
  registration: PackageRegistrationService;
  policy: AppsPolicy;
  blobs: ConfiguredBlobStore;
  clock: Clock;
  maxPackageBytes: number;
}

/** A package received in one request, stored and waiting to become a version. */
export interface ReceivedPackage {
  appId: number;
  sessionId: string;
  fileKey: string;
  fileSize: number;
  /** Inspected (its icon stored) while its bytes were flushed to disk (local store); registration takes it. */
  prepared?: PreparedPackage;
}

export const DirectUploadMessages = {
  notMultipart: '请使用 multipart/form-data 上传，例如 curl -F file=@app.apk -F path=<应用下载地址> …',
  noApp: '请在 file 之前给出 path（应用下载地址）或 appId，或写在地址的查询参数中',
  noFile: '缺少安装包：请用 -F file=@安装包路径 上传',
  oneFile: '一次只能上传一个安装包（字段 file）；只有同一版本的多个 HarmonyOS 模块（.hap / .hsp）可以一起上传',
} as const;

/** Passes bytes through, failing the stream once more than `max` went by (busboy would only truncate). */
function byteLimit(max: number, onBytes: (n: number) => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      onBytes(seen);
      if (seen > max) callback(new Error(`over ${max} bytes`));
      else callback(null, chunk);
    },
  });
}

/**
 * The one-request upload for CI (POST /api/upload_app/direct): the package streams from the request into the blob
 * store (never held in memory or on a temporary disk), then is registered like any upload. It goes through the same
 * start as the three-step flow (edit permit on the app, the uploads' key naming and limits). A refused, too large or
 * broken-off upload leaves nothing: its blob is removed and its session ends aborted.
 */
export function createDirectUploadService(deps: DirectUploadDeps) {
  const { uploads, sessions, apps, versions, registration, policy, blobs, clock } = deps;

  /** Ends a received upload that did not become a version; never the file of a version that exists. */
  async function drop(session: { sessionId: string; fileKey: string }): Promise<void> {
    if (await versions.findByFileKey(session.fileKey)) return;
    if (await sessions.transition(session.sessionId, ['issued', 'uploading', 'completed'], 'aborted', clock.now()))
      await blobs.delete(session.fileKey).catch(() => undefined);
  }

  return {
    /** The app a request names by `appId` or download `path`, if the user may publish to it. */
    async resolveApp(user: AuthUser, ref: { appId?: number; path?: string }): Promise<number> {
      let appId = ref.appId;
      if (appId === undefined && ref.path) appId = (await apps.findByPath(ref.path))?.id;
      if (appId === undefined)
        throw ref.path ? AppError.notFound(AppMessages.appNotFound) : AppError.badRequest(DirectUploadMessages.noApp);
      await policy.assertCanEdit(user, appId);
      return appId;
    },

    /** Streams one file into the store under a new upload session of `appId`; `used`: bytes the request's earlier files took. */
    async receive(user: AuthUser, appId: number, fileName: string, body: Readable, used = 0): Promise<ReceivedPackage> {
      const max = deps.maxPackageBytes - used;
      // The three-step flow's start: edit permit on the app and the quota of unfinished uploads.
      const keys = await uploads.issueKeys(user, { appFileName: fileName, attachFileNames: [], appId });
      const fileKey = keys.appFile?.fileKey;
      const session = fileKey ? await sessions.findByKey(fileKey) : undefined;
      if (!fileKey || !session) throw AppError.badRequest(UploadMessages.unknownKey);
      const received = { sessionId: session.id, fileKey };
      let size = 0;
      let prepared: PreparedPackage | undefined;
      try {
        const limited = body.pipe(byteLimit(max, (n) => (size = n)));
        // A failure of the request's stream (the client went away) must fail the store's write too.
        body.once('error', (error) => limited.destroy(error));
        // On local disk the package is inspected (and its icon stored) while it is flushed and placed: registering
        // it then waits for neither alone. A HarmonyOS module's icon is its set's, stored with the version.
        if (blobs.kind === 'local')
          await blobs.putReading(fileKey, limited, (file) => {
            prepared = registration.prepareAt(file, fileName, { storeIcon: !isUploadedTogether(fileName) });
            return prepared.inspection;
          });
        else await blobs.put(fileKey, limited, { contentType: 'application/octet-stream' });
      } catch (error) {
        await drop(received);
        // Judged by the bytes seen: a store may wrap the stream's error in its own.
        if (size > max) throw new AppError('tooLarge', UploadMessages.tooLarge(deps.maxPackageBytes));
        throw error;
      }
      if (size === 0) {
        await drop(received);
        throw AppError.badRequest('文件为空');
      }
      await sessions.transition(session.id, ['issued'], 'completed', clock.now(), { file_size: size });
      return { appId, ...received, fileSize: size, ...(prepared ? { prepared } : {}) };
    },

    /**
     * Makes the received package a version (several: the modules of one HarmonyOS version); a refusal (not a package,
     * other bundle id...) removes the files.
     */
    async register(
      user: AuthUser,
      files: ReceivedPackage[],
      fields: DirectUploadFields,
      baseUrl: string,
    ): Promise<{ version: VersionRecord; appName: string }> {
      const [first, ...others] = files as [ReceivedPackage, ...ReceivedPackage[]];
      let version: VersionRecord;
      try {
        version = await registration.register(
          user,
          {
            appId: first.appId,
            description: fields.note ?? fields.description ?? '',
            s3Url: first.fileKey,
            moduleFileUrls: others.map((file) => file.fileKey),
            attachFileUrls: [],
            chatEnv: fields.chatEnv ?? null,
            allowOtherBundleId: fields.allowOtherBundleId,
            commit: fields.commit,
            branch: fields.branch,
          },
          {
            baseUrl,
            prepared: new Map(files.flatMap((file) => (file.prepared ? [[file.fileKey, file.prepared]] : []))),
          },
        );
      } catch (error) {
        for (const file of files) await drop(file);
        throw error;
      }
      // Named in the answer, so that a client sending the app's path needs no call to look it up (issue 23).
      return { version, appName: (await apps.findById(first.appId))?.app_name ?? '' };
    },

    drop,
  };
}
export type DirectUploadService = ReturnType<typeof createDirectUploadService>;
