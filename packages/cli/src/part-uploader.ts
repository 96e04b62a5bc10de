import fs from 'node:fs';
import {
  UPLOAD_CONCURRENCY,
  UPLOAD_PART_RETRIES,
  UPLOAD_PART_TIMEOUT_MS,
  type MultipartStartResult,
} from '@release/contract';
import { describeNetworkError } from './api-client.ts';
import { CliError, ExitCode } from './exit-codes.ts';
import { text } from './messages.ts';
import { withRetries } from './retry.ts';

export interface PartTag {
  partNo: number;
  etag: string;
}

/** The two API calls around the parts (the API client provides them). */
export interface MultipartApi {
  startUpload(fileKey: string, fileSize: number): Promise<MultipartStartResult>;
  finishUpload(fileKey: string, uploadId: string, tags: PartTag[]): Promise<{ fileKey: string; fileSize: number }>;
}

export interface UploadFileOptions {
  filePath: string;
  fileKey: string;
  api: MultipartApi;
  concurrency?: number;
  /** Extra attempts per part after the first (SPEC §9: 3). */
  retries?: number;
  timeoutMs?: number;
  /** Pause before a part's next attempt: retryDelayMs × attempt number. */
  retryDelayMs?: number;
  fetchFn?: typeof fetch;
  /** Bytes sent so far (parts done plus parts in flight) of the whole file. */
  onProgress?: (loaded: number, total: number) => void;
}

/** A part that failed for good; `retry` tells whether the failure looked transient. */
class PartError extends CliError {
  readonly retry: boolean;

  constructor(message: string, retry: boolean, cause?: unknown) {
    super(ExitCode.failed, message, { cause });
    this.retry = retry;
  }
}

/** The bytes of one part, read from disk as they are sent and counted on the way. */
async function* partBytes(
  filePath: string,
  start: number,
  end: number,
  onBytes: (n: number) => void,
): AsyncGenerator<Uint8Array> {
  if (end <= start) return;
  for await (const chunk of fs.createReadStream(filePath, { start, end: end - 1, highWaterMark: 256 * 1024 })) {
    const bytes = chunk as Buffer;
    onBytes(bytes.length);
    yield bytes;
  }
}

/**
 * One file through the three upload steps of SPEC §4/§7, as the web app does it: start, PUT every
 * part to its signed URL (5 at a time, each retried 3 times with a 60 s timeout), finish with the
 * ETags. Parts are streamed from disk; the file is never held in memory.
 */
export async function uploadFile(options: UploadFileOptions): Promise<{ fileKey: string; fileSize: number }> {
  const { filePath, fileKey, api } = options;
  const fetchFn = options.fetchFn ?? fetch;
  const total = (await fs.promises.stat(filePath)).size;
  const session = await api.startUpload(fileKey, total);
  const done = new Map<number, number>();
  const inFlight = new Map<number, number>();
  const report = () => {
    let loaded = 0;
    for (const bytes of done.values()) loaded += bytes;
    for (const bytes of inFlight.values()) loaded += bytes;
    options.onProgress?.(Math.min(loaded, total), total);
  };
  const tags: PartTag[] = [];
  const failure = new AbortController();

  async function putPart(part: MultipartStartResult['uploadParamsList'][number]): Promise<void> {
    const start = (part.partNo - 1) * session.partSize;
    const end = Math.min(start + session.partSize, total);
    const etag = await withRetries(
      async () => {
        inFlight.set(part.partNo, 0);
        const signal = AbortSignal.any([
          failure.signal,
          AbortSignal.timeout(options.timeoutMs ?? UPLOAD_PART_TIMEOUT_MS),
        ]);
        let response: Response;
        try {
          response = await fetchFn(part.signedUrl, {
            method: 'PUT',
            headers: { 'content-length': String(end - start), 'content-type': 'application/octet-stream' },
            body: partBytes(filePath, start, end, (n) => {
              inFlight.set(part.partNo, (inFlight.get(part.partNo) ?? 0) + n);
              report();
            }),
            duplex: 'half',
            signal,
          });
          // Drain the answer so the connection can be reused.
          await response.arrayBuffer();
        } catch (error) {
          throw new PartError(
            text.partFailed(part.partNo, describeNetworkError(error)),
            !failure.signal.aborted,
            error,
          );
        } finally {
          inFlight.delete(part.partNo);
        }
        if (!response.ok) {
          const retry = response.status >= 500 || response.status === 408 || response.status === 429;
          throw new PartError(text.partStatus(part.partNo, response.status), retry);
        }
        const tag = response.headers.get('etag');
        if (!tag) throw new PartError(text.partNoEtag(part.partNo), false);
        return tag;
      },
      {
        retries: options.retries ?? UPLOAD_PART_RETRIES,
        delayMs: options.retryDelayMs ?? 500,
        isTransient: (error) => error instanceof PartError && error.retry,
        signal: failure.signal,
      },
    );
    done.set(part.partNo, end - start);
    tags.push({ partNo: part.partNo, etag });
    report();
  }

  const queue = [...session.uploadParamsList];
  let firstError: unknown = null;
  const worker = async () => {
    for (let part = queue.shift(); part && !failure.signal.aborted; part = queue.shift()) {
      try {
        await putPart(part);
      } catch (error) {
        // One part failed for good: stop the others, report the first cause.
        if (firstError === null) firstError = error;
        failure.abort();
      }
    }
  };
  report();
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? UPLOAD_CONCURRENCY, queue.length) }, worker));
  if (firstError !== null) throw firstError;
  tags.sort((a, b) => a.partNo - b.partNo);
  return api.finishUpload(fileKey, session.uploadId, tags);
}
