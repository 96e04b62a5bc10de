import type { PartSender } from './multipart-upload.ts';

/** The `msg` of our server's JSON envelope; null for anything else (S3's XML, a proxy's HTML page). */
export function envelopeMessage(text: string): string | null {
  if (!text.startsWith('{')) return null;
  try {
    const msg: unknown = (JSON.parse(text) as { msg?: unknown }).msg;
    return typeof msg === 'string' && msg.trim() ? msg.trim().slice(0, 200) : null;
  } catch {
    return null;
  }
}

/**
 * The browser's PUT of one part, through XMLHttpRequest: `fetch` reports no upload progress, and the
 * progress is what the bar and the stall timeout (SPEC §9) go by. Rejects on a network error or abort;
 * any HTTP answer resolves with its status and ETag.
 */
export const xhrPut: PartSender = (url, { body, signal, onUploadProgress }) =>
  new Promise((resolve, reject) => {
    const aborted = (): DOMException => new DOMException('已取消上传', 'AbortError');
    if (signal.aborted) {
      reject(aborted());
      return;
    }
    const xhr = new XMLHttpRequest();
    const abort = (): void => xhr.abort();
    const settle = (done: () => void) => (): void => {
      signal.removeEventListener('abort', abort);
      done();
    };
    xhr.open('PUT', url);
    // Signed URL: no token header and no cookies on another host (S3).
    xhr.withCredentials = false;
    xhr.upload.addEventListener('progress', (event) => onUploadProgress(event.loaded));
    xhr.addEventListener(
      'load',
      settle(() =>
        resolve({
          status: xhr.status,
          etag: xhr.getResponseHeader('ETag'),
          ...(xhr.status >= 300 ? { message: envelopeMessage(xhr.responseText) } : {}),
        }),
      ),
    );
    xhr.addEventListener(
      'error',
      settle(() => reject(new TypeError('上传失败，请检查网络'))),
    );
    xhr.addEventListener(
      'abort',
      settle(() => reject(aborted())),
    );
    signal.addEventListener('abort', abort, { once: true });
    xhr.send(body);
  });
