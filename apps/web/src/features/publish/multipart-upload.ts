import {
  UPLOAD_CONCURRENCY,
  UPLOAD_PART_RETRIES,
  UPLOAD_PART_TIMEOUT_MS,
  UPLOAD_TRANSFER_SHARE,
  type MultipartStartResult,
} from '@release/contract';
import { PartProgress, StallTimer } from './part-progress.ts';
import { xhrPut } from './xhr-put.ts';

/**
 * One file through the three upload steps of SPEC §4/§7: start, PUT each part to its signed URL,
 * finish with the parts' ETags. Framework-free: the API calls and the PUT are injected, so it runs
 * (and is tested) anywhere. A failed or canceled run keeps what was done; `run()` again resumes.
 */

export interface PartTag {
  partNo: number;
  etag: string;
}

export interface MultipartApi {
  start: (fileKey: string, fileSize: number, signal: AbortSignal) => Promise<MultipartStartResult>;
  finish: (
    fileKey: string,
    uploadId: string,
    tags: PartTag[],
    signal: AbortSignal,
  ) => Promise<{ fileKey: string; fileSize: number }>;
}

export interface PartPut {
  body: Blob;
  signal: AbortSignal;
  /** Bytes of this attempt's body sent so far (the upload progress events). */
  onUploadProgress: (sent: number) => void;
}

export interface PartAnswer {
  status: number;
  etag: string | null;
  /** The server's own words for a refusal (its envelope's `msg`), when it sent any. */
  message?: string | null;
}

/** One part's PUT to its signed URL: rejects on a network error or abort. `xhrPut` in the browser; fakes in tests. */
export type PartSender = (url: string, put: PartPut) => Promise<PartAnswer>;

export interface TransferProgress {
  loaded: number;
  total: number;
  /** The transfer's share of the progress bar: 0 to 80 (SPEC §9). */
  percent: number;
}

export interface MultipartUploadOptions {
  blob: Blob;
  fileKey: string;
  api: MultipartApi;
  sendPart?: PartSender;
  concurrency?: number;
  /** Extra attempts per part after the first (SPEC §9: 3). */
  retries?: number;
  /** A part attempt fails after this long without any of its bytes sent (SPEC §9: 60 s). */
  timeoutMs?: number;
  /** Pause before a part's next attempt: retryDelayMs × attempt number. */
  retryDelayMs?: number;
  /** Whether an error of `api.start`/`api.finish` is worth sending again as is (network, timeout). */
  isTransient?: (error: unknown) => boolean;
  onProgress?: (progress: TransferProgress) => void;
}

export type UploadFailureStage = 'aborted' | 'start' | 'part' | 'finish';

export class UploadError extends Error {
  readonly stage: UploadFailureStage;

  constructor(stage: UploadFailureStage, message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'UploadError';
    this.stage = stage;
  }
}

export function isAbortError(error: unknown): boolean {
  return (
    (error instanceof UploadError && error.stage === 'aborted') ||
    (error instanceof DOMException && error.name === 'AbortError')
  );
}

/** Bytes done as the progress bar's transfer share, never above 80. */
export function transferPercent(loaded: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(UPLOAD_TRANSFER_SHARE * 100, Math.floor((loaded / total) * UPLOAD_TRANSFER_SHARE * 100));
}

interface Session {
  uploadId: string;
  partSize: number;
  parts: MultipartStartResult['uploadParamsList'];
}

/** `retry`: worth another attempt; otherwise the signed URL was refused and the next run restarts. */
type AttemptResult = { ok: true; etag: string } | { ok: false; retry: boolean; message: string };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export class MultipartUpload {
  private readonly options: Required<Omit<MultipartUploadOptions, 'onProgress'>> &
    Pick<MultipartUploadOptions, 'onProgress'>;
  private session: Session | null = null;
  private readonly etags = new Map<number, string>();
  private readonly sent = new PartProgress((partNo) => this.partBlob(partNo).size);
  private finished: { fileKey: string; fileSize: number } | null = null;

  constructor(options: MultipartUploadOptions) {
    // `??`, not a spread: a key passed as undefined must not erase its default.
    this.options = {
      ...options,
      sendPart: options.sendPart ?? xhrPut,
      concurrency: options.concurrency ?? UPLOAD_CONCURRENCY,
      retries: options.retries ?? UPLOAD_PART_RETRIES,
      timeoutMs: options.timeoutMs ?? UPLOAD_PART_TIMEOUT_MS,
      retryDelayMs: options.retryDelayMs ?? 500,
      isTransient: options.isTransient ?? (() => true),
    };
  }

  get total(): number {
    return this.options.blob.size;
  }

  /** Bytes sent: the parts the store confirmed, plus the most seen sent of each part still going. */
  get loaded(): number {
    if (this.finished) return this.total;
    if (!this.session) return 0;
    return this.sent.total;
  }

  get isFinished(): boolean {
    return this.finished !== null;
  }

  /** Uploads what is left and finishes. Rejects with an UploadError; call again to resume. */
  async run(signal: AbortSignal): Promise<{ fileKey: string; fileSize: number }> {
    if (this.finished) return this.finished;
    this.throwIfAborted(signal);
    const session = this.session ?? (await this.start(signal));
    this.report();
    await this.uploadParts(session, signal);
    const tags = [...this.etags.entries()].sort(([a], [b]) => a - b).map(([partNo, etag]) => ({ partNo, etag }));
    try {
      this.finished = await this.options.api.finish(this.options.fileKey, session.uploadId, tags, signal);
    } catch (error) {
      this.throwIfAborted(signal);
      // The store refused the parts: the next run starts the transfer over.
      if (!this.options.isTransient(error)) this.reset();
      throw new UploadError('finish', messageOf(error), error);
    }
    this.report();
    return this.finished;
  }

  private async start(signal: AbortSignal): Promise<Session> {
    const { blob, fileKey, api } = this.options;
    let result: MultipartStartResult;
    try {
      result = await api.start(fileKey, blob.size, signal);
    } catch (error) {
      this.throwIfAborted(signal);
      throw new UploadError('start', messageOf(error), error);
    }
    const expected = Math.ceil(blob.size / result.partSize);
    if (result.partSize <= 0 || result.uploadParamsList.length !== expected) {
      throw new UploadError(
        'start',
        `分片信息不完整（需要 ${expected} 个分片，收到 ${result.uploadParamsList.length} 个）`,
      );
    }
    this.etags.clear();
    this.sent.clear();
    this.session = { uploadId: result.uploadId, partSize: result.partSize, parts: result.uploadParamsList };
    return this.session;
  }

  private reset(): void {
    this.session = null;
    this.etags.clear();
    this.sent.clear();
  }

  private partBlob(partNo: number): Blob {
    const partSize = this.session?.partSize ?? 1;
    const from = (partNo - 1) * partSize;
    return this.options.blob.slice(from, Math.min(from + partSize, this.options.blob.size));
  }

  private report(): void {
    const loaded = this.loaded;
    this.options.onProgress?.({ loaded, total: this.total, percent: transferPercent(loaded, this.total) });
  }

  private throwIfAborted(signal: AbortSignal): void {
    if (signal.aborted) throw new UploadError('aborted', '已取消上传');
  }

  /** At most `concurrency` parts in flight; the first part that gives up stops the others. */
  private async uploadParts(session: Session, signal: AbortSignal): Promise<void> {
    const queue = session.parts.filter((part) => !this.etags.has(part.partNo));
    const stop = new AbortController();
    const stopAll = (): void => stop.abort();
    signal.addEventListener('abort', stopAll, { once: true });
    const outcome: { failure: { message: string; restart: boolean } | null } = { failure: null };

    const worker = async (): Promise<void> => {
      for (let part = queue.shift(); part && !stop.signal.aborted; part = queue.shift()) {
        const result = await this.sendPart(part.partNo, part.signedUrl, stop.signal);
        if (result.ok) {
          this.etags.set(part.partNo, result.etag);
          this.sent.done(part.partNo);
          this.report();
        } else if (!stop.signal.aborted) {
          outcome.failure = { message: result.message, restart: !result.retry };
          stop.abort();
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.options.concurrency, queue.length) }, worker));
    } finally {
      signal.removeEventListener('abort', stopAll);
    }
    this.throwIfAborted(signal);
    if (outcome.failure) {
      const { message, restart } = outcome.failure;
      // A refused part (expired or unknown signed URL): the next run asks for new ones.
      if (restart) this.reset();
      throw new UploadError('part', message);
    }
  }

  /** One part, with up to `retries` more attempts on network errors, timeouts and 5xx answers. */
  private async sendPart(partNo: number, url: string, stop: AbortSignal): Promise<AttemptResult> {
    let last: AttemptResult = { ok: false, retry: false, message: '' };
    for (let attempt = 0; attempt <= this.options.retries; attempt += 1) {
      if (attempt > 0) await sleep(this.options.retryDelayMs * attempt, stop);
      if (stop.aborted) return { ok: false, retry: false, message: '已取消上传' };
      last = await this.attemptPart(partNo, url, stop);
      if (last.ok) return last;
      if (!last.retry) break;
    }
    return last;
  }

  private async attemptPart(partNo: number, url: string, stop: AbortSignal): Promise<AttemptResult> {
    const controller = new AbortController();
    // A slow link is not a failure: only a part with no bytes sent for timeoutMs is (SPEC §9, docs/decisions.md).
    const stall = new StallTimer(this.options.timeoutMs, () => controller.abort());
    stall.touch();
    const abort = (): void => controller.abort();
    stop.addEventListener('abort', abort, { once: true });
    const onUploadProgress = (sent: number): void => {
      stall.touch();
      if (this.sent.sent(partNo, sent)) this.report();
    };
    try {
      const { status, etag, message } = await this.options.sendPart(url, {
        body: this.partBlob(partNo),
        signal: controller.signal,
        onUploadProgress,
      });
      // The server's Chinese message (507 disk full, 503 database away) says more than a status number.
      if (status >= 500 || status === 408 || status === 429) {
        return {
          ok: false,
          retry: true,
          message: message ? `分片 ${partNo} 上传失败：${message}` : `分片 ${partNo} 上传失败（HTTP ${status}）`,
        };
      }
      if (status < 200 || status > 299)
        return {
          ok: false,
          retry: false,
          message: message
            ? `分片 ${partNo} 上传被拒绝：${message}`
            : `分片 ${partNo} 上传被拒绝（HTTP ${status}），请重试`,
        };
      if (!etag)
        return {
          ok: false,
          retry: false,
          message: `分片 ${partNo} 没有返回 ETag，请检查存储的跨域设置（ExposeHeaders: ETag）`,
        };
      return { ok: true, etag };
    } catch {
      if (stop.aborted) return { ok: false, retry: false, message: '已取消上传' };
      return {
        ok: false,
        retry: true,
        message: stall.stalled ? `分片 ${partNo} 上传超时` : `分片 ${partNo} 上传失败，请检查网络`,
      };
    } finally {
      stall.stop();
      stop.removeEventListener('abort', abort);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : '上传失败';
}
