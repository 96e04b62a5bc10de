import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MultipartStartResult } from '@release/contract';
import { isAbortError, MultipartUpload, UploadError, type MultipartApi, type PartFetch, type PartTag, type TransferProgress } from './multipart-upload.ts';

const PART = 10;

function blobOf(size: number): Blob {
  return new Blob([new Uint8Array(size).map((_, i) => i % 251)]);
}

function partNoOf(url: string): number {
  return Number(new URL(url).searchParams.get('partNo'));
}

/** A fake server: start hands out one URL per part, finish records the tags. */
function fakeApi(size: number, options: { finishError?: () => unknown } = {}) {
  const calls = { start: 0, finish: [] as PartTag[][] };
  const api: MultipartApi = {
    start: async (fileKey, fileSize): Promise<MultipartStartResult> => {
      calls.start += 1;
      const count = Math.ceil(fileSize / PART);
      return {
        uploadId: `u${calls.start}`,
        partSize: PART,
        uploadParamsList: Array.from({ length: count }, (_, i) => ({ partNo: i + 1, signedUrl: `https://s3.test/${fileKey}?upload=u${calls.start}&partNo=${i + 1}` })),
      };
    },
    finish: async (fileKey, _uploadId, tags) => {
      calls.finish.push(tags);
      const error = options.finishError?.();
      if (error) throw error;
      return { fileKey, fileSize: size };
    },
  };
  return { api, calls };
}

type Answer = (partNo: number, attempt: number, signal: AbortSignal) => Promise<Response> | Response;

/** A fake `fetch` for the PUTs: counts attempts and how many are in flight at once. */
function fakeFetch(answer: Answer = (partNo) => ok(partNo)) {
  const stats = { inFlight: 0, maxInFlight: 0, attempts: new Map<number, number>(), signals: [] as AbortSignal[], bodies: new Map<number, number>() };
  const fetchFn: PartFetch = async (url, init) => {
    const partNo = partNoOf(url);
    const attempt = (stats.attempts.get(partNo) ?? 0) + 1;
    stats.attempts.set(partNo, attempt);
    if (init.body instanceof Blob) stats.bodies.set(partNo, init.body.size);
    expect(init.method).toBe('PUT');
    expect(init.credentials).toBe('omit');
    const signal = init.signal ?? new AbortController().signal;
    stats.signals.push(signal);
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1 + ((partNo * 7) % 5)));
      return await answer(partNo, attempt, signal);
    } finally {
      stats.inFlight -= 1;
    }
  };
  return { fetchFn, stats };
}

function ok(partNo: number): Response {
  return new Response(null, { status: 200, headers: { ETag: `"etag-${partNo}"` } });
}

function hangUntilAborted(signal: AbortSignal): Promise<Response> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true }));
}

function upload(size: number, fetchFn: PartFetch, api: MultipartApi, extra: Partial<ConstructorParameters<typeof MultipartUpload>[0]> = {}) {
  const progress: TransferProgress[] = [];
  const job = new MultipartUpload({ blob: blobOf(size), fileKey: 'packages/a.apk', api, fetchFn, retryDelayMs: 0, onProgress: (p) => progress.push(p), ...extra });
  return { job, progress };
}

describe('MultipartUpload', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uses the global fetch when none is passed (or undefined is)', async () => {
    const { api, calls } = fakeApi(PART + 1);
    const { fetchFn, stats } = fakeFetch();
    vi.stubGlobal('fetch', fetchFn);
    const job = new MultipartUpload({ blob: blobOf(PART + 1), fileKey: 'k', api, fetchFn: undefined, retries: undefined });
    await job.run(new AbortController().signal);
    expect(stats.signals).toHaveLength(2);
    expect(calls.finish).toHaveLength(1);
  });

  it('sends every part at most 5 at a time and finishes with the ETags in part order', async () => {
    const size = PART * 12 + 3;
    const { api, calls } = fakeApi(size);
    const { fetchFn, stats } = fakeFetch();
    const { job, progress } = upload(size, fetchFn, api);

    await expect(job.run(new AbortController().signal)).resolves.toEqual({ fileKey: 'packages/a.apk', fileSize: size });
    expect(stats.maxInFlight).toBe(5);
    expect(calls.finish).toEqual([Array.from({ length: 13 }, (_, i) => ({ partNo: i + 1, etag: `"etag-${i + 1}"` }))]);
    expect(stats.bodies.get(1)).toBe(PART);
    expect(stats.bodies.get(13)).toBe(3);

    const percents = progress.map((p) => p.percent);
    expect(percents.every((p, i) => p <= 80 && (i === 0 || p >= (percents[i - 1] ?? 0)))).toBe(true);
    expect(progress.at(-1)).toEqual({ loaded: size, total: size, percent: 80 });
  });

  it('retries a failing part 3 times, then resumes only the parts not done', async () => {
    const size = PART * 8;
    const { api, calls } = fakeApi(size);
    let broken = true;
    const { fetchFn, stats } = fakeFetch((partNo) => (broken && partNo === 3 ? new Response('oops', { status: 503 }) : ok(partNo)));
    const { job } = upload(size, fetchFn, api);

    const failure = await job.run(new AbortController().signal).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UploadError);
    expect((failure as UploadError).stage).toBe('part');
    expect((failure as UploadError).message).toContain('503');
    expect(stats.attempts.get(3)).toBe(4);
    expect(calls.finish).toHaveLength(0);
    const partsDone = job.loaded / PART;
    expect(partsDone).toBeGreaterThan(0);
    expect(partsDone).toBeLessThan(8);

    broken = false;
    const attemptsBefore = stats.signals.length;
    await job.run(new AbortController().signal);
    expect(calls.start).toBe(1);
    // Only the parts the store had not confirmed are sent again.
    expect(stats.signals.length - attemptsBefore).toBe(8 - partsDone);
    expect(stats.attempts.get(3)).toBe(5);
    expect(calls.finish[0]?.map((t) => t.partNo)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('retries network errors and timeouts, never more than 3 times', async () => {
    const size = PART * 2;
    const { api } = fakeApi(size);
    const { fetchFn, stats } = fakeFetch((partNo, attempt, signal) => {
      if (partNo === 1 && attempt < 3) throw new TypeError('Failed to fetch');
      if (partNo === 2) return hangUntilAborted(signal);
      return ok(partNo);
    });
    const { job } = upload(size, fetchFn, api, { timeoutMs: 15 });

    const failure = await job.run(new AbortController().signal).catch((error: unknown) => error);
    expect((failure as UploadError).message).toContain('超时');
    expect(stats.attempts.get(1)).toBe(3);
    expect(stats.attempts.get(2)).toBe(4);
  });

  it('stops everything on abort and resumes afterwards', async () => {
    const size = PART * 20;
    const { api, calls } = fakeApi(size);
    const controller = new AbortController();
    let release = false;
    const { fetchFn, stats } = fakeFetch((partNo, _attempt, signal) => {
      if (!release && partNo >= 4) {
        if (partNo === 6) setTimeout(() => controller.abort(), 5);
        return hangUntilAborted(signal);
      }
      return ok(partNo);
    });
    const { job } = upload(size, fetchFn, api);

    const failure = await job.run(controller.signal).catch((error: unknown) => error);
    expect(isAbortError(failure)).toBe(true);
    const started = stats.signals.length;
    expect(stats.signals.every((s, i) => i < 3 || s.aborted)).toBe(true);
    expect(stats.inFlight).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stats.signals.length).toBe(started);
    expect(calls.finish).toHaveLength(0);

    release = true;
    await job.run(new AbortController().signal);
    expect(calls.start).toBe(1);
    expect([1, 2, 3].map((n) => stats.attempts.get(n))).toEqual([1, 1, 1]);
    expect(calls.finish[0]).toHaveLength(20);
  });

  it('asks for new signed URLs when a part is refused', async () => {
    const size = PART * 3;
    const { api, calls } = fakeApi(size);
    const { fetchFn } = fakeFetch((partNo, attempt) => (partNo === 2 && attempt === 1 ? new Response(null, { status: 403 }) : ok(partNo)));
    const { job } = upload(size, fetchFn, api);

    await expect(job.run(new AbortController().signal)).rejects.toThrow('403');
    expect(job.loaded).toBe(0);
    await job.run(new AbortController().signal);
    expect(calls.start).toBe(2);
  });

  it('re-sends only finish after a transient failure, restarts after a refusal', async () => {
    const size = PART * 2;
    let finishError: unknown = new Error('网络不太好~');
    const { api, calls } = fakeApi(size, { finishError: () => finishError });
    const { fetchFn, stats } = fakeFetch();
    const isTransient = (error: unknown) => error instanceof Error && error.message.includes('网络');
    const { job } = upload(size, fetchFn, api, { isTransient });

    await expect(job.run(new AbortController().signal)).rejects.toMatchObject({ stage: 'finish' });
    finishError = new Error('文件未上传完整，请重试');
    await expect(job.run(new AbortController().signal)).rejects.toMatchObject({ stage: 'finish' });
    expect(calls.start).toBe(1);
    expect(stats.signals.length).toBe(2);

    finishError = null;
    await job.run(new AbortController().signal);
    expect(calls.start).toBe(2);
    expect(stats.signals.length).toBe(4);
    expect(job.isFinished).toBe(true);
    await job.run(new AbortController().signal);
    expect(calls.finish).toHaveLength(3);
  });
});
