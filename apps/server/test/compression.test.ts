import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { rawRequest, type RawResponse } from './helpers/raw-http.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const decode = (res: RawResponse): Buffer => {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.body);
  if (encoding === 'gzip') return zlib.gunzipSync(res.body);
  return res.body;
};

/** A built web app as `vite build` leaves it: hashed files under assets/, each with its .br and .gz beside it. */
function writeDist(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
  }
}

const HTML = `<!doctype html><html lang="zh-CN"><head><title>发布系统</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const JS = `export const routes = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ path: `/home/page-${i}`, title: `页面 ${i}` })))};\n`;

describe.each(testDialects())('compressed answers on %s', (dialect) => {
  let server: TestServer;
  let dist: string;
  let token: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'release-web-'));
    writeDist(dist, { 'index.html': HTML, 'assets/index-Ab12Cd34.js': JS });
    server = await startTestServer(dialect, { webDistDir: dist });
    token = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends API JSON as brotli or gzip, as Accept-Encoding allows, and plain without it', async () => {
    const plain = await rawRequest(`${server.url}/api/docs/json`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const document = JSON.parse(plain.body.toString('utf8')) as { openapi: string };
    expect(document.openapi).toMatch(/^3\./);
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip, deflate', 'gzip'],
      ['gzip;q=0.5, br;q=1', 'br'],
    ] as const) {
      const res = await rawRequest(`${server.url}/api/docs/json`, { headers: { 'accept-encoding': accept } });
      expect([accept, res.headers['content-encoding']]).toEqual([accept, encoding]);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.length).toBeLessThan(plain.body.length / 3);
      expect(JSON.parse(decode(res).toString('utf8'))).toEqual(document);
    }
    // An envelope too: a list the web app reads.
    const list = await rawRequest(`${server.url}/api/roles?pageNo=1&pageSize=100`, {
      headers: { token, 'accept-encoding': 'br' },
    });
    expect(JSON.parse(decode(list).toString('utf8'))).toMatchObject({ code: 200 });
  });

  it('serves the page and hashed scripts precompressed: br or gzip, immutable scripts, a page that is never cached stale', async () => {
    for (const [accept, encoding, suffix] of [
      ['br, gzip', 'br', '.br'],
      ['gzip', 'gzip', '.gz'],
      ['identity', undefined, ''],
    ] as const) {
      const script = await rawRequest(`${server.url}/assets/index-Ab12Cd34.js`, {
        headers: { 'accept-encoding': accept },
      });
      expect([accept, script.status, script.headers['content-encoding']]).toEqual([accept, 200, encoding]);
      expect(script.headers['content-type']).toMatch(/javascript/);
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(script.body).toEqual(fs.readFileSync(path.join(dist, `assets/index-Ab12Cd34.js${suffix}`)));
      expect(decode(script).toString('utf8')).toBe(JS);

      // The page itself and a client route (served index.html) alike.
      for (const route of ['/', '/home/app/demo']) {
        const page = await rawRequest(`${server.url}${route}`, { headers: { 'accept-encoding': accept } });
        expect([route, accept, page.headers['content-encoding']]).toEqual([route, accept, encoding]);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.headers['cache-control']).toBe('no-cache');
        expect(decode(page).toString('utf8')).toBe(HTML);
      }
    }
  });

  it('answers a Range from the identity bytes, never from a compressed file', async () => {
    const res = await rawRequest(`${server.url}/assets/index-Ab12Cd34.js`, {
      headers: { 'accept-encoding': 'br, gzip', range: 'bytes=10-99' },
    });
    expect(res.status).toBe(206);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe(`bytes 10-99/${Buffer.byteLength(JS)}`);
    expect(res.body).toEqual(Buffer.from(JS).subarray(10, 100));
  });

  it('leaves package downloads as stored: whole or by range, whatever the browser accepts', async () => {
    const apk = Buffer.concat([sampleApk(), Buffer.alloc(64 * 1024, 'a')]);
    const key = await transferFile(server, token, 'demo.apk', apk);
    for (const type of ['application/vnd.android.package-archive', 'application/octet-stream', 'text/plain']) {
      const url = new URL(
        await server.blobs.downloadUrl(key, { expiresInSec: 600, fileName: 'demo.apk', contentType: type }),
        server.url,
      ).toString();
      const whole = await rawRequest(url, { headers: { 'accept-encoding': 'br, gzip' } });
      expect([type, whole.status, whole.headers['content-encoding']]).toEqual([type, 200, undefined]);
      expect(whole.headers['content-length']).toBe(String(apk.length));
      expect(whole.body).toEqual(apk);
      const part = await rawRequest(url, { headers: { 'accept-encoding': 'br, gzip', range: 'bytes=1000-' } });
      expect([type, part.status, part.headers['content-encoding']]).toEqual([type, 206, undefined]);
      expect(part.body).toEqual(apk.subarray(1000));
    }
  });
});
