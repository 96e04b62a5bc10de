import { randomBytes, randomUUID } from 'node:crypto';
import {
  TASK_ATTACHMENT_PREFIX,
  UPLOAD_PART_SIZE,
  type GetSignedUrlResult,
  type MultipartStartResult,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { BlobError, type BlobPart } from '../../storage/blob-store.ts';
import type { ConfiguredBlobStore } from '../../storage/create-blob-store.ts';
import type { MembersLookup } from '../apps/apps-directory.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { UploadSessionsRepository } from './upload-sessions.repository.ts';

/** Signed part URLs live long enough for a slow 2 GB upload; each part is retried by the client. */
const PART_URL_TTL_SEC = 24 * 60 * 60;
/** Unfinished or unregistered uploads are cleaned up after this long. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

const mb = (bytes: number) => Math.ceil(bytes / 1024 / 1024);

export const UploadMessages = {
  unknownKey: '上传凭证无效或已过期，请重新上传',
  tooLarge: (max: number) => `文件过大，最大支持 ${Math.floor(max / 1024 / 1024)} MB`,
  incomplete: '文件未上传完整，请重试',
  noUploadPermit: '没有上传权限：需要至少一个应用的编辑权限',
  quota: (held: { files: number; bytes: number }, quota: UploadQuota) =>
    `未完成的上传过多：你已有 ${held.files} 个未完成的上传（共 ${mb(held.bytes)} MB），上限为 ${quota.maxFiles} 个、${mb(quota.maxBytes)} MB。请先完成或放弃进行中的上传，未完成的上传会在 24 小时后自动清理`,
} as const;

/** How much one user may hold in unfinished uploads (issued, transferring, or finished but not yet used). */
export interface UploadQuota {
  maxFiles: number;
  maxBytes: number;
}
export const DEFAULT_UPLOAD_QUOTA: UploadQuota = { maxFiles: 50, maxBytes: 20 * 1024 ** 3 };

/** What one upload start asks for: the app it is for when known, and how many files and bytes it adds. */
export interface UploadAsk {
  appId?: number;
  files: number;
  bytes: number;
  /** The session being (re)started: what it held before is not counted twice. */
  sessionId?: string;
}

/** Object names are ours: a folder per upload, and the original name made safe for any store. */
function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'file';
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(-120);
  return cleaned || 'file';
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** SPEC §7: a task attachment is stored as `lark_attachment/` + 16 random characters + the file's extension. */
export function taskAttachmentKey(fileName: string): string {
  const bytes = randomBytes(16);
  let name = '';
  for (const byte of bytes) name += KEY_ALPHABET[byte % KEY_ALPHABET.length];
  const ext = /\.([A-Za-z0-9]{1,10})$/.exec(safeFileName(fileName))?.[1]?.toLowerCase();
  return `${TASK_ATTACHMENT_PREFIX}${name}${ext ? `.${ext}` : ''}`;
}

export function createUploadsService(deps: {
  sessions: UploadSessionsRepository;
  blobs: ConfiguredBlobStore;
  clock: Clock;
  maxPackageBytes: number;
  policy: AppsPolicy;
  members: Pick<MembersLookup, 'editsAnyApp'>;
  quota?: UploadQuota;
  /** Starts a package inspection worker while a package is on its way (the inspection pool's warm). */
  warmInspector?: () => void;
}) {
  const { sessions, blobs, clock } = deps;
  const quota = deps.quota ?? DEFAULT_UPLOAD_QUOTA;

  /**
   * Every upload start: an edit permit on the app it is for (when known), else on some app (admins always); and the
   * user's unfinished uploads with this one stay within the quota.
   */
  async function admit(user: AuthUser, ask: UploadAsk): Promise<void> {
    if (ask.appId !== undefined) await deps.policy.assertCanEdit(user, ask.appId);
    else if (!user.isAdmin && !(await deps.members.editsAnyApp(user.userId)))
      throw AppError.noPermission(UploadMessages.noUploadPermit);
    const held = await sessions.unfinishedOf(user.userId, ask.sessionId);
    if (held.files + ask.files > quota.maxFiles || held.bytes + ask.bytes > quota.maxBytes)
      throw AppError.tooManyRequests(UploadMessages.quota(held, quota));
  }

  async function ownSession(userId: number, fileKey: string) {
    const session = await sessions.findByKey(fileKey);
    if (!session || session.user_id !== userId) throw AppError.badRequest(UploadMessages.unknownKey);
    return session;
  }

  return {
    admit,

    /** Names the objects of one publish: the package and its attachments (for `appId` when the client says it). */
    async issueKeys(
      user: AuthUser,
      body: { appFileName?: string; attachFileNames: string[]; scene?: 'lark_attachment'; appId?: number },
    ): Promise<GetSignedUrlResult> {
      const { appFileName, attachFileNames, scene } = body;
      await admit(user, { appId: body.appId, files: (appFileName ? 1 : 0) + attachFileNames.length, bytes: 0 });
      const userId = user.userId;
      const now = clock.now();
      const month = new Date(now).toISOString().slice(0, 7).replace('-', '/');
      const keyOf = (id: string, fileName: string, purpose: 'package' | 'attachment') => {
        if (scene === 'lark_attachment' && purpose === 'attachment') return taskAttachmentKey(fileName);
        return `${purpose === 'package' ? 'packages' : 'attachments'}/${month}/${id}/${safeFileName(fileName)}`;
      };
      const make = (fileName: string, purpose: 'package' | 'attachment') => {
        const id = randomUUID();
        return {
          id,
          user_id: userId,
          file_key: keyOf(id, fileName, purpose),
          file_name: fileName,
          file_size: null,
          part_size: null,
          store_upload_id: null,
          state: 'issued' as const,
          purpose,
          create_time: now,
          update_time: now,
        };
      };
      const appFile = appFileName ? make(appFileName, 'package') : null;
      // Its inspection is next once the bytes are in: a worker starts meanwhile rather than after them.
      if (appFile) deps.warmInspector?.();
      const attachments = attachFileNames.map((name) => make(name, 'attachment'));
      await sessions.insertMany([...(appFile ? [appFile] : []), ...attachments]);
      return {
        appFile: appFile ? { fileName: appFile.file_name, fileKey: appFile.file_key } : null,
        attachFiles: attachments.map((a) => ({ fileName: a.file_name, fileKey: a.file_key })),
      };
    },

    /** Starts (or restarts) the transfer of an issued key: one signed URL per 5 MB part. */
    async start(user: AuthUser, fileKey: string, fileSize: number, baseUrl: string): Promise<MultipartStartResult> {
      const session = await ownSession(user.userId, fileKey);
      if (fileSize > deps.maxPackageBytes) throw AppError.badRequest(UploadMessages.tooLarge(deps.maxPackageBytes));
      if (session.state !== 'issued' && session.state !== 'uploading')
        throw AppError.badRequest(UploadMessages.unknownKey);
      await admit(user, { files: 1, bytes: fileSize, sessionId: session.id });
      if (session.store_upload_id) await blobs.abortMultipart(fileKey, session.store_upload_id);
      const partSize = UPLOAD_PART_SIZE;
      const { uploadId: storeUploadId } = await blobs.startMultipart(fileKey, {
        size: fileSize,
        partSize,
        contentType: 'application/octet-stream',
      });
      await sessions.update(session.id, {
        state: 'uploading',
        file_size: fileSize,
        part_size: partSize,
        store_upload_id: storeUploadId,
        update_time: clock.now(),
      });
      const partCount = Math.ceil(fileSize / partSize);
      const uploadParamsList = [];
      for (let partNo = 1; partNo <= partCount; partNo += 1) {
        const url = await blobs.partUploadUrl(fileKey, storeUploadId, partNo, PART_URL_TTL_SEC);
        uploadParamsList.push({ partNo, signedUrl: new URL(url, `${baseUrl}/`).toString() });
      }
      return { uploadId: session.id, partSize, uploadParamsList };
    },

    /** Assembles the parts. Sending it again after success answers the same, so a retry is safe. */
    async finish(userId: number, fileKey: string, uploadId: string, parts: BlobPart[]) {
      const session = await ownSession(userId, fileKey);
      if (session.id !== uploadId) throw AppError.badRequest(UploadMessages.unknownKey);
      if (session.state === 'completed' || session.state === 'registered')
        return { fileKey, fileSize: session.file_size ?? 0 };
      if (session.state !== 'uploading' || !session.store_upload_id || session.file_size === null || !session.part_size)
        throw AppError.badRequest(UploadMessages.unknownKey);
      // Every part must be listed before the store is asked: S3 would assemble a short object and end the upload.
      const partCount = Math.ceil(session.file_size / session.part_size);
      const listed = new Set(parts.map((p) => p.partNo));
      const missing = Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !listed.has(n));
      if (missing.length)
        throw AppError.badRequest(`${UploadMessages.incomplete}（缺少分片 ${missing.slice(0, 10).join(', ')}）`);
      try {
        await blobs.completeMultipart(fileKey, session.store_upload_id, parts, session.file_size);
      } catch (error) {
        if (error instanceof BlobError) throw AppError.badRequest(`${UploadMessages.incomplete}（${error.message}）`);
        throw error;
      }
      await sessions.transition(session.id, ['uploading'], 'completed', clock.now());
      return { fileKey, fileSize: session.file_size };
    },

    /** A completed upload of this user, ready to become a version or an attachment. */
    async completedUpload(userId: number, fileKey: string) {
      const session = await ownSession(userId, fileKey);
      if (session.state !== 'completed' && session.state !== 'registered')
        throw AppError.badRequest(UploadMessages.incomplete);
      return session;
    },

    markRegistered: (sessionId: string) => sessions.transition(sessionId, ['completed'], 'registered', clock.now()),

    /** Refuses an upload for good: its object is deleted and its key can no longer be used. */
    async discard(sessionId: string, fileKey: string) {
      await sessions.transition(sessionId, ['completed', 'uploading', 'issued'], 'aborted', clock.now());
      await blobs.delete(fileKey);
    },

    /**
     * Abandoned uploads: transfers never finished and packages never registered are removed, and so are
     * parts in the store that no live session owns (a process that died between the two writes).
     */
    async cleanUpAbandoned(): Promise<number> {
      const cutoff = clock.now() - ABANDONED_UPLOAD_MS;
      const stale = await sessions.findStale(['issued', 'uploading', 'completed'], cutoff, 500);
      for (const session of stale) {
        if (!(await sessions.transition(session.id, [session.state], 'aborted', clock.now()))) continue;
        if (session.store_upload_id && session.state === 'uploading')
          await blobs.abortMultipart(session.file_key, session.store_upload_id);
        if (session.state === 'completed') await blobs.delete(session.file_key);
      }
      let orphans = 0;
      for (const upload of await blobs.listMultipart()) {
        if (upload.startedAt >= cutoff) continue;
        const owner = await sessions.findByStoreUploadId(upload.uploadId);
        if (owner?.state === 'uploading') continue;
        await blobs.abortMultipart(upload.key, upload.uploadId);
        orphans += 1;
      }
      return stale.length + orphans;
    },
  };
}
export type UploadsService = ReturnType<typeof createUploadsService>;
