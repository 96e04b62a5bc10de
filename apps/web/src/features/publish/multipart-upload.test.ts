import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MultipartStartResult } from '@release/contract';
import {
  isAbortError,
  MultipartUpload,
  UploadError,
  type MultipartApi,
  type PartAnswer,
  type PartPut,
  type PartSender,
  type PartTag,
  type TransferProgress,
} from './multipart-upload.ts';

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
        uploadParamsList: Array.from({ length: count }, (_, i) => ({
          partNo: i + 1,
          signedUrl: `https://s3.test/${fileKey}?upload=u${calls.start}&partNo=${i + 1}`,
        })),
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

/** A fake PUT: sends half the part, then answers; counts attempts and how many are in flight at once. */
function fakeFetch(answer: Answer = (partNo) => ok(partNo)) {
  const stats = {
    inFlight: 0,
    maxInFlight: 0,
    attempts: new Map<number, number>(),
    signals: [] as AbortSignal[],
    bodies: new Map<number, number>(),
    confirmed: new Set<number>(),
  };
  const fetchFn: PartSender = async (url, { body, signal, onUploadProgress }) => {
    const partNo = partNoOf(url);
    const attempt = (stats.attempts.get(partNo) ?? 0) + 1;
    stats.attempts.set(partNo, attempt);
    stats.bodies.set(partNo, body.size);
    stats.signals.push(signal);
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      onUploadProgress(Math.floor(body.size / 2));
      await new Promise((resolve) => setTimeout(resolve, 1 + ((partNo * 7) % 5)));
      const response = await answer(partNo, attempt, signal);
      if (response.ok) stats.confirmed.add(partNo);
      return { status: response.status, etag: response.headers.get('ETag') };
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
  return new Promise((_, reject) =>
    signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true }),
  );
}

function upload(
  size: number,
  fetchFn: PartSender,
  api: MultipartApi,
  extra: Partial<ConstructorParameters<typeof MultipartUpload>[0]> = {},
) {
  const progress: TransferProgress[] = [];
  const job = new MultipartUpload({
    blob: blobOf(size),
    fileKey: 'packages/a.apk',
    api,
    sendPart: fetchFn,
    retryDelayMs: 0,
    onProgress: (p) => progress.push(p),
    ...extra,
  });
  return { job, progress };
}

/** A PUT the test drives by hand: it sends bytes and answers when told, and fails when aborted. */
function manualSender() {
  const state = { attempts: 0, put: null as PartPut | null, answer: (_: PartAnswer): void => {} };
  const sendPart: PartSender = (_url, put) =>
    new Promise((resolve, reject) => {
      state.attempts += 1;
      state.put = put;
      state.answer = resolve;
      put.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
    });
  return { sendPart, state };
}

describe('MultipartUpload on a slow link (SPEC §9 60 s as a stall timeout)', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps a part that takes minutes while its bytes keep moving, and the bar follows the bytes', async () => {
    vi.useFakeTimers();
    const { api } = fakeApi(PART);
    const { sendPart, state } = manualSender();
    const { job, progress } = upload(PART, sendPart, api, { timeoutMs: undefined });
    const run = job.run(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(0);
    for (let sent = 2; sent <= PART; sent += 2) {
      await vi.advanceTimersByTimeAsync(59_000);
      state.put?.onUploadProgress(sent);
    }
    expect(state.attempts).toBe(1);
    expect(state.put?.signal.aborted).toBe(false);
    state.answer({ status: 200, etag: '"e1"' });
    await expect(run).resolves.toEqual({ fileKey: 'packages/a.apk', fileSize: PART });
    expect([...new Set(progress.map((p) => p.percent))]).toEqual([0, 16, 32, 48, 64, 80]);
  });

  it('fails a part with no byte sent for 60 s as 分片 1 上传超时, after its 3 retries, and the bar does not go back', async () => {
    vi.useFakeTimers();
    const { api } = fakeApi(PART);
    const { sendPart, state } = manualSender();
    const { job, progress } = upload(PART, sendPart, api, { timeoutMs: undefined });
    const run = job.run(new AbortController().signal).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    state.put?.onUploadProgress(5);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect(state.attempts).toBe(attempt);
      state.put?.onUploadProgress(attempt);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(state.put?.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
    }
    const failure = await run;
    expect(failure).toBeInstanceOf(UploadError);
    expect((failure as UploadError).message).toBe('分片 1 上传超时');
    expect(state.attempts).toBe(4);
    // The retries sent 1-4 bytes each: the bar stays at the 5 bytes seen first.
    expect(progress.map((p) => p.loaded)).toEqual([0, 5]);
    expect(job.loaded).toBe(5);
  });
});

describe('MultipartUpload', () => {
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
    const { fetchFn, stats } = fakeFetch((partNo) =>
      broken && partNo === 3 ? new Response('oops', { status: 503 }) : ok(partNo),
    );
    const { job } = upload(size, fetchFn, api);

    const failure = await job.run(new AbortController().signal).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UploadError);
    expect((failure as UploadError).stage).toBe('part');
    expect((failure as UploadError).message).toContain('503');
    expect(stats.attempts.get(3)).toBe(4);
    expect(calls.finish).toHaveLength(0);
    const partsDone = stats.confirmed.size;
    // The bar counts the confirmed parts and the bytes sent of the others, part 3's at most once.
    expect(job.loaded).toBeGreaterThanOrEqual(partsDone * PART + PART / 2);
    expect(job.loaded).toBeLessThanOrEqual(partsDone * PART + (8 - partsDone) * (PART / 2));
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
    const { fetchFn } = fakeFetch((partNo, attempt) =>
      partNo === 2 && attempt === 1 ? new Response(null, { status: 403 }) : ok(partNo),
    );
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
