import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createS3BlobStore } from '../src/storage/s3-blob-store.ts';
import { testDialects } from './helpers/dialects.ts';
import { S3_TEST_CREDENTIALS, startS3Server } from './helpers/s3-server.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

/** A Content-Security-Policy as directive → sources. */
function directives(header: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

function webDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'release-web-'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>发布系统</title><div id="root"></div>');
  return dist;
}

describe.each(testDialects())('security headers on %s', (dialect) => {
  describe('a server without PUBLIC_URL on local storage', () => {
    let server: TestServer;
    let dist: string;
    beforeAll(async () => {
      dist = webDist();
      server = await startTestServer(dialect, { webDistDir: dist });
    });
    afterAll(async () => {
      await server?.close();
      fs.rmSync(dist, { recursive: true, force: true });
    });

    it('gives every page of the web app a strict policy: own scripts only, no plugins, no framing, no foreign base', async () => {
      for (const route of ['/', '/home/app/demo', '/package/demo', '/login']) {
        const res = await fetch(`${server.url}${route}`);
        const csp = directives(res.headers.get('content-security-policy'));
        expect(csp['script-src'], route).toEqual(["'self'"]);
        expect(csp['object-src']).toEqual(["'none'"]);
        expect(csp['base-uri']).toEqual(["'self'"]);
        expect(csp['frame-ancestors']).toEqual(["'none'"]);
        expect(csp['default-src']).toEqual(["'self'"]);
        expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
        expect(csp['connect-src']).toEqual(["'self'", server.url]);
        expect(res.headers.get('x-frame-options')).toBe('DENY');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('referrer-policy')).toBe('same-origin');
        expect(res.headers.get('permissions-policy')).toContain('camera=()');
        expect(res.headers.get('strict-transport-security')).toBeNull();
      }
    });

    it('gives the Swagger UI its own policy and JSON none', async () => {
      const docs = await fetch(`${server.url}/api/docs/`);
      expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = directives(docs.headers.get('content-security-policy'));
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      const json = await fetch(`${server.url}/api/system/ping`);
      expect(json.headers.get('content-security-policy')).toBeNull();
      expect(json.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('keeps the sandbox and referrer policy of uploaded files', async () => {
      const token = await server.adminToken();
      const key = await transferFile(server, token, 'page.apk', sampleApk());
      const url = new URL(
        await server.blobs.downloadUrl(key, { expiresInSec: 600, fileName: 'page.html', contentType: 'text/html' }),
        server.url,
      );
      const res = await fetch(url);
      expect(res.headers.get('content-security-policy')).toMatch(/^sandbox /);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    });
  });

  describe('a server with an https PUBLIC_URL, a download host and S3 storage', () => {
    let server: TestServer;
    let dist: string;
    let s3: Awaited<ReturnType<typeof startS3Server>>;
    beforeAll(async () => {
      dist = webDist();
      s3 = await startS3Server();
      const store = createS3BlobStore({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        bucket: s3.bucket,
        forcePathStyle: true,
        ...S3_TEST_CREDENTIALS,
      });
      server = await startTestServer(dialect, {
        webDistDir: dist,
        publicUrl: 'https://release.example.com/',
        downloadBaseUrl: 'https://cdn.example.com/files',
        blobs: () => store,
      });
    });
    afterAll(async () => {
      await server?.close();
      await s3?.close();
      fs.rmSync(dist, { recursive: true, force: true });
    });

    it('lets the page reach the hosts its links name, and turns HSTS on', async () => {
      const res = await fetch(`${server.url}/home/app`);
      const csp = directives(res.headers.get('content-security-policy'));
      // The store's presigned part URLs are where the browser PUTs; the policy must name that very origin.
      const token = await server.adminToken();
      const keys = await server.request<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', {
        token,
        body: { appFileName: 'a.apk' },
      });
      const start = await server.request<{ uploadParamsList: Array<{ signedUrl: string }> }>(
        'POST',
        '/api/multi_signed_url_upload',
        { token, body: { functionName: 'start', fileKey: keys.body.data.appFile.fileKey, fileSize: 10 } },
      );
      const storeOrigin = new URL(start.body.data.uploadParamsList[0]?.signedUrl ?? '').origin;
      expect(storeOrigin).toBe(s3.endpoint);
      for (const directive of ['connect-src', 'img-src', 'media-src']) {
        expect(csp[directive], directive).toEqual(
          expect.arrayContaining(["'self'", 'https://release.example.com', 'https://cdn.example.com', storeOrigin]),
        );
      }
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
    });
  });
});
