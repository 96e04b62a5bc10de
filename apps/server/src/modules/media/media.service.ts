import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { peekStream } from '../../lib/peek-stream.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { EXTENSION_OF, sniffType, type SniffedType } from '../../lib/file-type.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { Logger } from '../../lib/logger.ts';
import { MEDIA_KEY, mediaKeyOf } from '../../http/media-links.ts';
import type { MediaFilesRepository } from './media-files.repository.ts';

export type MediaPurpose = 'app' | 'media';

const ALLOWED: Record<MediaPurpose, SniffedType[]> = {
  // App icons: SPEC §5 accepts only jpeg or png.
  app: ['image/png', 'image/jpeg'],
  // Snapshots: SPEC §5 images and videos.
  media: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'video/mp4', 'video/webm', 'video/quicktime'],
};
const REFUSED: Record<MediaPurpose, string> = { app: '必须上传图片类型的文件', media: '必须上传图片或视频类型的文件' };

function mediaKey(now: number, type: SniffedType): string {
  const date = new Date(now);
  return `media/${date.getUTCFullYear()}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}.${EXTENSION_OF[type]}`;
}

/** MEDIA_GRACE_HOURS' default: how long a stored file may wait for a record to reference it. */
export const DEFAULT_MEDIA_GRACE_MS = 24 * 60 * 60 * 1000;
const PURGE_BATCH = 500;

export interface MediaDeps {
  blobs: BlobStore;
  clock: Clock;
  files: MediaFilesRepository;
  /** MEDIA_GRACE_HOURS in ms. */
  graceMs?: number;
  logger?: Logger;
}

/** Icons and snapshot media: type-checked by content, stored under unguessable keys, listed in media_files. */
export function createMediaService(deps: MediaDeps) {
  const { blobs, clock, files } = deps;
  const graceMs = deps.graceMs ?? DEFAULT_MEDIA_GRACE_MS;

  async function store(key: string, body: Readable | Buffer, type: SniffedType, userId: number | null): Promise<void> {
    const { size } = await blobs.put(key, body, { contentType: type });
    await files.record({ key, size, userId, createTime: clock.now() });
  }

  return {
    async upload(
      file: Readable,
      purpose: MediaPurpose,
      declaredMime: string,
      userId: number | null = null,
    ): Promise<{ key: string; type: SniffedType }> {
      // Refuse early on the declared type too, so a huge wrong file is not streamed for nothing.
      if (purpose === 'app' && !['image/png', 'image/jpeg'].includes(declaredMime))
        throw AppError.badRequest(REFUSED.app);
      const { head, stream } = await peekStream(file, 16);
      const type = sniffType(head);
      if (!type || !ALLOWED[purpose].includes(type)) {
        file.resume();
        throw AppError.badRequest(REFUSED[purpose]);
      }
      const key = mediaKey(clock.now(), type);
      await store(key, stream, type, userId);
      return { key, type };
    },

    /** Stores an image the server made itself (a package icon). */
    async storeImage(data: Buffer, type: SniffedType): Promise<string> {
      const key = mediaKey(clock.now(), type);
      await store(key, data, type, null);
      return key;
    },

    /**
     * Housekeeping: deletes the stored files older than the grace period that no app icon, version icon or update item
     * names (a picture uploaded and never saved, an icon replaced, a screenshot removed). Answers how many went.
     */
    async purgeUnreferenced(now: number): Promise<number> {
      const { links, unreadable } = await files.mediaLinks();
      const named = new Set(links.map((link) => mediaKeyOf(link) ?? ''));
      let removed = 0;
      let after: { createTime: number; key: string } | null = null;
      for (;;) {
        const batch = await files.storedBefore(now - graceMs, after, PURGE_BATCH);
        if (!batch.length) return removed;
        const icons = new Set(await files.versionIcons(batch.map((f) => f.key)));
        for (const file of batch) {
          if (named.has(file.key) || icons.has(file.key) || unreadable.some((text) => text.includes(file.key)))
            continue;
          try {
            await blobs.delete(file.key);
            await files.remove(file.key);
            removed += 1;
          } catch (err) {
            deps.logger?.warn(
              { err, key: file.key },
              'removing an unreferenced media file failed; the next housekeeping tries again',
            );
          }
        }
        const last = batch.at(-1);
        after = last ? { createTime: last.createTime, key: last.key } : null;
      }
    },

    isMediaKey: (key: string) => MEDIA_KEY.test(key),
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
