import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MultipartStartResult } from '@release/contract';
import { MultipartUpload } from './multipart-upload.ts';
import { xhrPut } from './xhr-put.ts';

/** Just enough of XMLHttpRequest: sends the body in two progress events, then answers. */
class FakeXhr extends EventTarget {
  static sent: Array<{ method: string; url: string; size: number; withCredentials: boolean }> = [];
  static answer: 'ok' | 'network' | 'hang' = 'ok';
  readonly upload = new EventTarget();
  withCredentials = true;
  status = 0;
  private method = '';
  private url = '';

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  getResponseHeader(name: string): string | null {
    return name === 'ETag' ? `"etag-${this.url}"` : null;
  }

  send(body: Blob): void {
    FakeXhr.sent.push({ method: this.method, url: this.url, size: body.size, withCredentials: this.withCredentials });
    if (FakeXhr.answer === 'hang') return;
    queueMicrotask(() => {
      for (const loaded of [Math.floor(body.size / 2), body.size]) this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded }));
      if (FakeXhr.answer === 'network') return void this.dispatchEvent(new Event('error'));
      this.status = 200;
      this.dispatchEvent(new Event('load'));
    });
  }

  abort(): void {
    this.dispatchEvent(new Event('abort'));
  }
}

describe('xhrPut', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.sent = [];
    FakeXhr.answer = 'ok';
  });

  it('PUTs the part without cookies, reports the bytes sent and answers the status and ETag', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const seen: number[] = [];
    const answer = await xhrPut('https://s3.test/p1', { body: new Blob(['0123456789']), signal: new AbortController().signal, onUploadProgress: (n) => seen.push(n) });
    expect(answer).toEqual({ status: 200, etag: '"etag-https://s3.test/p1"' });
    expect(seen).toEqual([5, 10]);
    expect(FakeXhr.sent).toEqual([{ method: 'PUT', url: 'https://s3.test/p1', size: 10, withCredentials: false }]);
  });

  it('rejects on a network error and on abort', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const put = { body: new Blob(['x']), onUploadProgress: () => undefined };
    FakeXhr.answer = 'network';
    await expect(xhrPut('https://s3.test/p', { ...put, signal: new AbortController().signal })).rejects.toBeInstanceOf(TypeError);
    FakeXhr.answer = 'hang';
    const controller = new AbortController();
    const pending = xhrPut('https://s3.test/p', { ...put, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(xhrPut('https://s3.test/p', { ...put, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('is what MultipartUpload sends parts with when no sender is passed (or undefined is)', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const start = async (): Promise<MultipartStartResult> => ({ uploadId: 'u', partSize: 4, uploadParamsList: [1, 2].map((partNo) => ({ partNo, signedUrl: `https://s3.test/${partNo}` })) });
    const finish = vi.fn(async () => ({ fileKey: 'k', fileSize: 6 }));
    const job = new MultipartUpload({ blob: new Blob(['abcdef']), fileKey: 'k', api: { start, finish }, sendPart: undefined, retries: undefined });
    await job.run(new AbortController().signal);
    expect(FakeXhr.sent.map((s) => s.size).sort()).toEqual([2, 4]);
    expect(finish).toHaveBeenCalledWith('k', 'u', [{ partNo: 1, etag: '"etag-https://s3.test/1"' }, { partNo: 2, etag: '"etag-https://s3.test/2"' }], expect.anything());
  });
});
