import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema } from '../src/db/database.ts';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createCiApp, type CiApp } from './helpers/ci-app.ts';
import { startCompiledServer } from './helpers/compiled-server.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { runProcess } from './helpers/subprocess.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * GET /cli/release-cli.mjs (issue 16.4): the CLI as one file, fetched without a token and run from a folder with no
 * node_modules — from a saved file and piped into `node -` — publishing and skipping against the real server.
 */
describe.each(testDialects())('release-cli served as one file on %s', (dialect) => {
  let server: TestServer;
  let tmp: string;
  let ci: CiApp;

  beforeAll(async () => {
    // An empty folder outside the repository: nothing to resolve packages from.
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-cli-download-'));
    server = await startTestServer(dialect);
    ci = await createCiApp(server);
  });
  afterAll(async () => {
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const download = (headers: Record<string, string> = {}) =>
    fetch(`${server.url}/cli/release-cli.mjs`, { headers: { 'accept-encoding': 'identity', ...headers } });

  it('serves the file to anyone, revalidated by its ETag, the same bytes brotli- or gzip-compressed', async () => {
    const plain = await download();
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, no-cache');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const etag = plain.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const text = await plain.text();
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    // Self-contained: no import of a package but Node's own (and sharp, tried only for icons, whose failure is kept quiet).
    const imports = [...text.matchAll(/\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2]);
    expect(imports.filter((name) => !name?.startsWith('node:') && name !== 'sharp')).toEqual([]);

    expect((await download({ 'if-none-match': etag })).status).toBe(304);
    // As sent (fetch would decode): smaller, and the same file once decoded.
    const br = await rawRequest(`${server.url}/cli/release-cli.mjs`, {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect([br.headers['content-encoding'], br.headers.etag]).toEqual(['br', `${etag.slice(0, -1)}-br"`]);
    expect(br.body.length).toBeLessThan(text.length / 3);
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(text);
    const gz = await rawRequest(`${server.url}/cli/release-cli.mjs`, {
      headers: { 'accept-encoding': 'gzip, br;q=0' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(text);
    expect((await download({ 'if-none-match': `${etag.slice(0, -1)}-gzip"`, 'accept-encoding': 'gzip' })).status).toBe(
      304,
    );
  });

  it('runs saved to a file and piped into node -, from a folder without node_modules, and publishes', async () => {
    const bundle = await (await download()).text();
    const saved = path.join(tmp, 'release-cli.mjs');
    fs.writeFileSync(saved, bundle);
    const env = { HOME: tmp, RELEASE_SERVER: server.url, RELEASE_TOKEN: ci.ciToken };
    const help = await runProcess(process.execPath, [saved, '--help'], { cwd: tmp, env });
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('release-cli upload <file>')]);

    fs.writeFileSync(path.join(tmp, 'app.apk'), sampleApk({ versionName: '5.0.0', versionCode: 500 }));
    const before = await ci.versionCount();
    const piped = await runProcess(
      process.execPath,
      ['-', 'upload', 'app.apk', '--app', 'shop', '--skip-existing', '--json'],
      { cwd: tmp, env, input: bundle },
    );
    expect([piped.code, piped.stderr]).toEqual([0, expect.stringContaining('app.apk: 100%')]);
    expect(JSON.parse(piped.stdout)).toMatchObject({
      ok: true,
      skipped: false,
      appId: ci.appId,
      version: { appVersion: '5.0.0', build: '500', uploadBy: 'ci-bot' },
    });
    // --skip-existing reads the package with the bundled inspectors.
    const again = await runProcess(
      process.execPath,
      [saved, 'upload', 'app.apk', '--app', 'shop', '--skip-existing', '--json'],
      { cwd: tmp, env },
    );
    expect([again.code, JSON.parse(again.stdout)]).toEqual([
      0,
      expect.objectContaining({ skipped: true, appVersion: '5.0.0', build: '500' }),
    ]);
    expect(await ci.versionCount()).toBe(before + 1);
  });

  it('the compiled server (npm start) serves the file built beside it', { timeout: 120_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-compiled-'));
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const compiled = await startCompiledServer({
      DATA_DIR: dataDir,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'admin-pass-123',
      ...(dialect === 'postgres'
        ? { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: schema, SECRET_KEY: randomBytes(32).toString('hex') }
        : {}),
    });
    try {
      const served = await fetch(`${compiled.url}/cli/release-cli.mjs`, { headers: { 'accept-encoding': 'identity' } });
      expect(served.status).toBe(200);
      expect(
        Buffer.from(await served.arrayBuffer()).equals(
          fs.readFileSync(path.join(root, 'apps/server/dist/release-cli.mjs')),
        ),
      ).toBe(true);
    } finally {
      await compiled.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
    }
  });
});
