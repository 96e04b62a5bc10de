import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MultipartStartResult } from '@release/contract';
import { MultipartUpload } from './multipart-upload.ts';
import { xhrPut } from './xhr-put.ts';

/** Just enough of XMLHttpRequest: sends the body in two progress events, then answers. */
class FakeXhr extends EventTarget {
  static sent: Array<{ method: string; url: string; size: number; withCredentials: boolean }> = [];
  static answer: 'ok' | 'network' | 'hang' | 'full' | 's3-refused' = 'ok';
  readonly upload = new EventTarget();
  withCredentials = true;
  status = 0;
  responseText = '';
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
      for (const loaded of [Math.floor(body.size / 2), body.size])
        this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded }));
      if (FakeXhr.answer === 'network') return void this.dispatchEvent(new Event('error'));
      this.status = 200;
      if (FakeXhr.answer === 'full') {
        this.status = 507;
        this.responseText = JSON.stringify({ code: 507, msg: '服务器存储空间不足，请联系管理员', data: null });
      }
      if (FakeXhr.answer === 's3-refused') {
        this.status = 403;
        this.responseText =
          '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
      }
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
    const answer = await xhrPut('https://s3.test/p1', {
      body: new Blob(['0123456789']),
      signal: new AbortController().signal,
      onUploadProgress: (n) => seen.push(n),
    });
    expect(answer).toEqual({ status: 200, etag: '"etag-https://s3.test/p1"' });
    expect(seen).toEqual([5, 10]);
    expect(FakeXhr.sent).toEqual([{ method: 'PUT', url: 'https://s3.test/p1', size: 10, withCredentials: false }]);
  });

  it('rejects on a network error and on abort', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const put = { body: new Blob(['x']), onUploadProgress: () => undefined };
    FakeXhr.answer = 'network';
    await expect(xhrPut('https://s3.test/p', { ...put, signal: new AbortController().signal })).rejects.toBeInstanceOf(
      TypeError,
    );
    FakeXhr.answer = 'hang';
    const controller = new AbortController();
    const pending = xhrPut('https://s3.test/p', { ...put, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(xhrPut('https://s3.test/p', { ...put, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it("answers the server's message of a refused part, and none for S3's XML", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const put = { body: new Blob(['x']), onUploadProgress: () => undefined, signal: new AbortController().signal };
    FakeXhr.answer = 'full';
    expect(await xhrPut('http://127.0.0.1/api/blob/part', put)).toMatchObject({
      status: 507,
      message: '服务器存储空间不足，请联系管理员',
    });
    FakeXhr.answer = 's3-refused';
    expect(await xhrPut('https://s3.test/p', put)).toMatchObject({ status: 403, message: null });
  });

  it('shows the server message when a part fails for good: 分片 N 上传失败：服务器存储空间不足…', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = 'full';
    const start = async (): Promise<MultipartStartResult> => ({
      uploadId: 'u',
      partSize: 4,
      uploadParamsList: [{ partNo: 1, signedUrl: 'http://127.0.0.1/api/blob/part?partNo=1' }],
    });
    const job = new MultipartUpload({
      blob: new Blob(['abc']),
      fileKey: 'k',
      api: { start, finish: vi.fn() },
      retryDelayMs: 0,
    });
    await expect(job.run(new AbortController().signal)).rejects.toMatchObject({
      stage: 'part',
      message: '分片 1 上传失败：服务器存储空间不足，请联系管理员',
    });
  });

  it('is what MultipartUpload sends parts with when no sender is passed (or undefined is)', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const start = async (): Promise<MultipartStartResult> => ({
      uploadId: 'u',
      partSize: 4,
      uploadParamsList: [1, 2].map((partNo) => ({ partNo, signedUrl: `https://s3.test/${partNo}` })),
    });
    const finish = vi.fn(async () => ({ fileKey: 'k', fileSize: 6 }));
    const job = new MultipartUpload({
      blob: new Blob(['abcdef']),
      fileKey: 'k',
      api: { start, finish },
      sendPart: undefined,
      retries: undefined,
    });
    await job.run(new AbortController().signal);
    expect(FakeXhr.sent.map((s) => s.size).sort()).toEqual([2, 4]);
    expect(finish).toHaveBeenCalledWith(
      'k',
      'u',
      [
        { partNo: 1, etag: '"etag-https://s3.test/1"' },
        { partNo: 2, etag: '"etag-https://s3.test/2"' },
      ],
      expect.anything(),
    );
  });
});
