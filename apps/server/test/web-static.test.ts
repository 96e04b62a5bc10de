import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

// Serving the built web app does not depend on the database: one run on SQLite proves it.
describe('the server serves the web app beside the API', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'release-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>发布系统</title><div id="root"></div>');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    server = await startTestServer('sqlite', { webDistDir: dist });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers client routes such as /home/setting/user-manage with index.html', async () => {
    for (const route of [
      '/',
      '/login',
      '/home/app/abcd?workflowId=3',
      '/home/setting/user-manage',
      '/403',
      '/package/xyzw',
    ]) {
      const res = await fetch(`${server.url}${route}`);
      expect([route, res.status, res.headers.get('content-type')?.startsWith('text/html')]).toEqual([route, 200, true]);
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('serves built assets with their type and sets security headers', async () => {
    const res = await fetch(`${server.url}/assets/app.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps answering JSON for unknown API paths and refuses path traversal', async () => {
    const api = await fetch(`${server.url}/api/nothing_here`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { code: number }).code).toBe(404);
    const traversal = await fetch(`${server.url}/assets/..%2f..%2f..%2fetc%2fpasswd`);
    expect(await traversal.text()).not.toContain('root:');
  });
});
