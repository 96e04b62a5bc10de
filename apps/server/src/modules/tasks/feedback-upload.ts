import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import {
  FEEDBACK_MAX_SCREENSHOTS,
  FEEDBACK_RECORDING_MAX_MB,
  FEEDBACK_SCREENSHOT_MAX_MB,
  FeedbackMessages,
  TASK_ATTACHMENT_PREFIX,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { EXTENSION_OF, sniffType, type SniffedType } from '../../lib/file-type.ts';
import { peekStream } from '../../lib/peek-stream.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { StoredTaskFile } from './task-columns.ts';

const MB = 1024 * 1024;
const SCREENSHOT_TYPES: SniffedType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const RECORDING_TYPES: SniffedType[] = ['video/mp4', 'video/quicktime', 'video/webm'];
/** The largest file multipart lets through at all; each kind has its own cap below it. */
export const FEEDBACK_FILE_LIMIT = FEEDBACK_RECORDING_MAX_MB * MB;

/**
 * Passes bytes on until `max`, then fails the stream (so a file is never stored past its cap). `refusal` is the
 * error once it tripped: a store may wrap the stream's error in its own (S3's upload does).
 */
function capped(max: number, message: string): { stream: Transform; refusal: () => AppError | null } {
  let seen = 0;
  let refusal: AppError | null = null;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen <= max) return done(null, chunk);
      refusal = AppError.badRequest(message);
      done(refusal);
    },
  });
  return { stream, refusal: () => refusal };
}

/**
 * Reads a feedback form: its text fields first, then up to five screenshots or one recording, each checked by its
 * first bytes (not its name or declared type) and capped by size while it streams to the store. `admit` runs once
 * every field is read and before any byte is stored (the visitor's access, the app's setting, the rate limit).
 * Files already stored are deleted when anything later fails.
 */
export async function readFeedbackForm(
  parts: AsyncIterableIterator<Multipart>,
  blobs: BlobStore,
  now: number,
  admit: (fields: Record<string, string>) => Promise<void>,
): Promise<{ fields: Record<string, string>; files: StoredTaskFile[] }> {
  const fields: Record<string, string> = {};
  const files: StoredTaskFile[] = [];
  let admitted = false;
  let kind: 'screenshot' | 'recording' | null = null;
  const date = new Date(now);
  const folder = `${TASK_ATTACHMENT_PREFIX}feedback/${date.getUTCFullYear()}/${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (admitted) throw AppError.badRequest(FeedbackMessages.fieldsFirst);
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (!admitted) {
        await admit(fields);
        admitted = true;
      }
      await storeFile(part.file);
      if (part.file.truncated) throw AppError.badRequest(FeedbackMessages.recordingTooLarge);
    }
    if (!admitted) await admit(fields);
    return { fields, files };
  } catch (error) {
    await Promise.all(files.map((f) => blobs.delete(f.s3Key).catch(() => undefined)));
    // Past the multipart file count (one more than a form may hold): the same words as our own count.
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT')
      throw AppError.badRequest(FeedbackMessages.tooManyFiles);
    throw error;
  }

  async function storeFile(file: Readable & { truncated?: boolean }) {
    const { head, stream } = await peekStream(file, 16);
    const type = sniffType(head);
    const thisKind =
      type && SCREENSHOT_TYPES.includes(type)
        ? 'screenshot'
        : type && RECORDING_TYPES.includes(type)
          ? 'recording'
          : null;
    if (!type || !thisKind) {
      file.resume();
      throw AppError.badRequest(FeedbackMessages.badFileType);
    }
    if (kind && kind !== thisKind) throw AppError.badRequest(FeedbackMessages.mixedFiles);
    kind = thisKind;
    if ((kind === 'recording' && files.length >= 1) || files.length >= FEEDBACK_MAX_SCREENSHOTS)
      throw AppError.badRequest(FeedbackMessages.tooManyFiles);
    const key = `${folder}/${randomUUID()}.${EXTENSION_OF[type]}`;
    const cap =
      kind === 'recording'
        ? capped(FEEDBACK_RECORDING_MAX_MB * MB, FeedbackMessages.recordingTooLarge)
        : capped(FEEDBACK_SCREENSHOT_MAX_MB * MB, FeedbackMessages.screenshotTooLarge);
    const name = `${kind === 'recording' ? '录屏' : `截图${files.length + 1}`}.${EXTENSION_OF[type]}`;
    files.push({ s3Key: key, fileName: name, fileToken: null });
    stream.on('error', (err) => cap.stream.destroy(err));
    await blobs.put(key, stream.pipe(cap.stream), { contentType: type }).catch((error: unknown) => {
      throw cap.refusal() ?? error;
    });
  }
}
