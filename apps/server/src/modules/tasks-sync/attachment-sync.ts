import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { LarkTaskMessages, TASK_ATTACHMENT_PREFIX, TASK_ATTACHMENTS_MAX } from '@release/contract';
import type { Clock } from '../../lib/clock.ts';
import { MEDIA_UPLOAD_MAX_BYTES } from '../../integrations/lark/lark-bitable.ts';
import { LarkApiError } from '../../integrations/lark/lark-client.ts';
import {
  capBytes,
  FileTooLargeError,
  type LarkDownload,
  type StreamedFile,
} from '../../integrations/lark/lark-files.ts';
import { TASK_ATTACHMENT_MAX_BYTES, type LarkTaskClient } from '../../integrations/lark/lark-task.ts';
import { BlobError, type BlobStore } from '../../storage/blob-store.ts';
import { taskColumns, type StoredTaskFile } from '../tasks/task-columns.ts';
import type { TaskRecordRow } from '../tasks/tasks.repository.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';

/** SPEC §7/§9: attachment work runs a few at a time, and downloads from Lark are spaced 1 s apart. */
const UPLOAD_CONCURRENCY = 3;
export const DOWNLOAD_SPACING_MS = 1_000;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A record holds at most TASK_ATTACHMENTS_MAX files here (the drawer sends them all with every edit, and more are
 * refused): files in Lark beyond that stay in Lark, and the history says so once.
 */
export const TOO_MANY_FILES_NOTE = `飞书中的附件超过 ${TASK_ATTACHMENTS_MAX} 个，其余附件未同步到本系统`;
export const roomForFiles = (filesHere: number) => Math.max(0, TASK_ATTACHMENTS_MAX - filesHere);
/** Files from Lark larger than this are not brought here (the spec names no limit: Lark's own upload_all one). */
export const LARK_FILE_MAX_BYTES = MEDIA_UPLOAD_MAX_BYTES;
export const tooLargeFromLarkNote = (name: string, now: number) => ({
  actor_id: null,
  source: 'lark' as const,
  field: 'larkSyncFailed',
  old_value: null,
  new_value: `飞书中的附件「${name}」超过 ${LARK_FILE_MAX_BYTES / 1024 / 1024} MB，未同步到本系统`,
  create_time: now,
  comment_id: null,
});
/** A local attachment Lark does not take (too large): it stays here, and the history says so once. */
export const tooLargeForLarkNote = (name: string, where: '飞书任务' | '飞书多维表格', limit?: string) =>
  `附件「${name}」${limit ? `超过 ${limit}` : '超过飞书允许的大小'}，未同步到${where}`;
export const tooManyFilesNote = (now: number) => ({
  actor_id: null,
  source: 'lark' as const,
  field: 'larkSyncFailed',
  old_value: null,
  new_value: TOO_MANY_FILES_NOTE,
  create_time: now,
  comment_id: null,
});

/** SPEC §7: task attachments are stored under lark_attachment/ + 16 random characters + the extension. */
export function attachmentKey(fileName: string): string {
  const bytes = randomBytes(16);
  const id = [...bytes].map((b) => ALNUM[b % ALNUM.length]).join('');
  const ext = path
    .extname(fileName)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '')
    .slice(0, 10);
  return `${TASK_ATTACHMENT_PREFIX}${id}${ext}`;
}

/** Runs `work` over `items`, at most `limit` at a time, answers in order. */
export async function limited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return out;
}

/** A local attachment's file from the store; one gone from the store is said by its name (the record's history shows it). */
export async function readStored(blobs: BlobStore, file: { s3Key: string; fileName: string }): Promise<Readable> {
  try {
    return await blobs.read(file.s3Key);
  } catch (error) {
    if (error instanceof BlobError && error.reason === 'not_found')
      throw new Error(LarkTaskMessages.fileMissing(file.fileName));
    throw error;
  }
}

/** A local attachment to send to Lark: its size from the store, its bytes streamed from there on each try. */
export async function storedFile(blobs: BlobStore, file: { s3Key: string; fileName: string }): Promise<StreamedFile> {
  const stat = await blobs.stat(file.s3Key);
  if (!stat) throw new Error(LarkTaskMessages.fileMissing(file.fileName));
  return { name: file.fileName, size: stat.size, open: () => readStored(blobs, file) };
}

/**
 * A file from Lark into the store under `key`, streamed and capped at LARK_FILE_MAX_BYTES (a larger one, by Lark's
 * word or by its bytes, is not kept: false). Nothing of it stays in the store then.
 */
export async function storeDownload(blobs: BlobStore, key: string, download: LarkDownload): Promise<boolean> {
  if (download.size !== null && download.size > LARK_FILE_MAX_BYTES) {
    download.body.destroy();
    return false;
  }
  const capped = capBytes(LARK_FILE_MAX_BYTES);
  download.body.on('error', (error) => capped.destroy(error));
  capped.on('error', () => download.body.destroy());
  try {
    await blobs.put(key, download.body.pipe(capped), { contentType: 'application/octet-stream' });
    return true;
  } catch (error) {
    if (error instanceof FileTooLargeError) return false;
    throw error;
  }
}

/** Runs downloads from Lark one after another, at least DOWNLOAD_SPACING_MS apart (one spacer for tasks and bugs). */
export type Spacer = <T>(run: () => Promise<T>) => Promise<T>;
export function createSpacer(
  sleep: (ms: number) => Promise<void> = (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
): Spacer {
  let lastDownload = Number.NEGATIVE_INFINITY;
  return async <T>(run: () => Promise<T>): Promise<T> => {
    const wait = lastDownload + DOWNLOAD_SPACING_MS - Date.now();
    if (wait > 0) await sleep(wait);
    lastDownload = Date.now();
    return run();
  };
}

/**
 * A task's attachments both ways. Local files without a Lark token are uploaded (up to 50 MB, Lark's limit; a larger
 * one stays here, noted once); Lark attachments no local file
 * names are downloaded into the blob store — unless the record's history shows that token on a file removed here,
 * in which case the Lark attachment is deleted instead. Tokens are written back by compare-and-set on attach_files.
 */
export function createAttachmentSync(deps: {
  client: LarkTaskClient;
  blobs: BlobStore;
  sync: TasksSyncRepository;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
  spaced?: Spacer;
}) {
  const spaced = deps.spaced ?? createSpacer(deps.sleep);
  return async function syncAttachments(
    record: TaskRecordRow,
    taskGuid: string,
  ): Promise<{ pushed: number; pulled: number }> {
    const files = taskColumns.attachFiles.decode(record.attach_files);
    const remote = await deps.client.listAttachments(taskGuid);
    const uploads = (
      await limited(
        files.filter((f) => !f.fileToken),
        UPLOAD_CONCURRENCY,
        async (f): Promise<[string, string] | null> => {
          const file = await storedFile(deps.blobs, f);
          // Task attachments are at most 50 MB in Lark (there is no multipart upload for them): a larger one stays here.
          if (file.size > TASK_ATTACHMENT_MAX_BYTES) {
            await deps.sync.noteOnce(record, {
              actor_id: null,
              source: 'lark',
              field: 'larkSyncFailed',
              old_value: null,
              new_value: tooLargeForLarkNote(f.fileName, '飞书任务', `${TASK_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB`),
              create_time: deps.clock.now(),
              comment_id: null,
            });
            return null;
          }
          return [f.s3Key, (await deps.client.uploadAttachment(taskGuid, file)).guid];
        },
      )
    ).filter((u): u is [string, string] => u !== null);
    const current = new Set(files.map((f) => f.fileToken).filter(Boolean));
    const removedHere = await deps.sync.attachmentTokensEverSeen(Number(record.id));
    const added: StoredTaskFile[] = [];
    let deleted = 0;
    let room = roomForFiles(files.length);
    for (const att of remote) {
      if (current.has(att.guid)) continue;
      if (removedHere.has(att.guid)) {
        await deps.client
          .deleteAttachment(att.guid)
          .catch((e: unknown) => (e instanceof LarkApiError && e.code === 1470404 ? undefined : Promise.reject(e)));
        deleted += 1;
        continue;
      }
      if (!att.url) continue;
      if (att.size > LARK_FILE_MAX_BYTES) {
        await deps.sync.noteOnce(record, tooLargeFromLarkNote(att.name, deps.clock.now()));
        continue;
      }
      if (room === 0) {
        await deps.sync.noteOnce(record, tooManyFilesNote(deps.clock.now()));
        continue;
      }
      const download = await spaced(() => deps.client.download(att.url as string));
      const key = attachmentKey(att.name);
      if (!(await storeDownload(deps.blobs, key, download))) {
        await deps.sync.noteOnce(record, tooLargeFromLarkNote(att.name, deps.clock.now()));
        continue;
      }
      room -= 1;
      added.push({ s3Key: key, fileName: att.name, fileToken: att.guid });
    }
    if (uploads.length || added.length)
      await deps.sync.mergeFiles(Number(record.id), new Map(uploads), added, deps.clock.now());
    return { pushed: uploads.length + deleted, pulled: added.length };
  };
}
