import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { peekStream } from '../../lib/peek-stream.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { EXTENSION_OF, sniffType, type SniffedType } from '../../lib/file-type.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { MEDIA_KEY } from '../../http/media-links.ts';

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

/** Icons and snapshot media: type-checked by content, stored under unguessable keys. */
export function createMediaService(deps: { blobs: BlobStore; clock: Clock }) {
  const { blobs, clock } = deps;

  return {
    async upload(file: Readable, purpose: MediaPurpose, declaredMime: string): Promise<{ key: string; type: SniffedType }> {
      // Refuse early on the declared type too, so a huge wrong file is not streamed for nothing.
      if (purpose === 'app' && !['image/png', 'image/jpeg'].includes(declaredMime)) throw AppError.badRequest(REFUSED.app);
      const { head, stream } = await peekStream(file, 16);
      const type = sniffType(head);
      if (!type || !ALLOWED[purpose].includes(type)) {
        file.resume();
        throw AppError.badRequest(REFUSED[purpose]);
      }
      const key = mediaKey(clock.now(), type);
      await blobs.put(key, stream, { contentType: type });
      return { key, type };
    },

    /** Stores an image the server made itself (a package icon). */
    async storeImage(data: Buffer, type: SniffedType): Promise<string> {
      const key = mediaKey(clock.now(), type);
      await blobs.put(key, data, { contentType: type });
      return key;
    },

    isMediaKey: (key: string) => MEDIA_KEY.test(key),
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
