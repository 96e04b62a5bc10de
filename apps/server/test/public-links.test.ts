import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstallPage } from '@release/contract';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const FORGED = 'evil.example:4444';

/** This machine's LAN IPv4 addresses (what a phone on the same network reaches); localhost when it has none. */
function lanHosts(): string[] {
  const hosts = Object.values(os.networkInterfaces())
    .flat()
    .filter((info) => info && !info.internal && info.family === 'IPv4')
    .map((info) => info?.address ?? '');
  return hosts.length > 0 ? hosts : ['localhost'];
}

interface Links {
  downloadUrl: string;
  partUrl: string;
  installUrl: string;
  fileUrl: string;
  profileUrl: string;
}

/** Every kind of absolute link, asked for with the given Host header: QR/app link, part upload, iOS install, file, device profile. */
async function linksFor(server: TestServer, token: string, appId: number, host: string): Promise<Links> {
  const headers = { host, token, 'content-type': 'application/json' };
  const json = async <T>(method: string, path: string, body?: unknown) => {
    const res = await rawRequest(`${server.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = JSON.parse(res.body.toString('utf8')) as { code: number; msg: string; data: T };
    if (envelope.code !== 200) throw new Error(`${path}: ${envelope.msg}`);
    return envelope.data;
  };
  const detail = await json<{ downloadUrl: string }>('GET', `/api/app?appId=${appId}`);
  const keys = await json<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', { appFileName: 'x.apk' });
  const start = await json<{ uploadParamsList: Array<{ signedUrl: string }> }>('POST', '/api/multi_signed_url_upload', {
    functionName: 'start',
    fileKey: keys.appFile.fileKey,
    fileSize: 10,
  });
  const page = await json<InstallPage>('GET', '/api/app_version?url=links&password=246810');
  const ios = page.versions.find((v) => v.installUrl?.startsWith('itms-services:'));
  const android = page.versions.find((v) => v.fileName.endsWith('.apk'));
  const enroll = await json<{ profileUrl: string }>('POST', '/api/device_enroll', {});
  return {
    downloadUrl: detail.downloadUrl,
    partUrl: start.uploadParamsList[0]?.signedUrl ?? '',
    installUrl: decodeURIComponent(new URL(ios?.installUrl ?? '').searchParams.get('url') ?? ''),
    fileUrl: android?.downloadUrl ?? '',
    profileUrl: enroll.profileUrl,
  };
}

const origins = (links: Links) =>
  Object.fromEntries(Object.entries(links).map(([kind, url]) => [kind, new URL(url).origin]));

describe.each(testDialects())('absolute links never follow a Host header the server does not own, on %s', (dialect) => {
  describe('a server listening on all interfaces (0.0.0.0) without PUBLIC_URL', () => {
    let server: TestServer;
    let token: string;
    let appId: number;
    let port: string;
    beforeAll(async () => {
      server = await startTestServer(dialect, { host: '0.0.0.0' });
      port = new URL(server.url).port;
      token = await server.adminToken();
      const created = await server.request<{ appId: number }>('POST', '/api/app', {
        token,
        body: { appName: '链接', appType: 'native', password: '246810', path: 'links' },
      });
      appId = created.body.data.appId;
      for (const [name, bytes] of [
        ['a.apk', sampleApk()],
        ['a.ipa', sampleIpa()],
      ] as const) {
        await server.request('POST', '/api/v2/upload_app', {
          token,
          body: { appId, s3Url: await transferFile(server, token, name, bytes) },
        });
      }
    });
    afterAll(async () => {
      await server?.close();
    });

    it('answers a forged Host with links to its LAN address, for every kind of link', async () => {
      const links = await linksFor(server, token, appId, FORGED);
      const lan = new URL(links.downloadUrl);
      expect(lanHosts()).toContain(lan.hostname);
      expect(lan.port).toBe(port);
      for (const [kind, origin] of Object.entries(origins(links))) expect([kind, origin]).toEqual([kind, lan.origin]);
      expect(JSON.stringify(links)).not.toContain('evil.example');
    });

    it('keeps the page a LAN visitor is on, and gives QR and device links the LAN address when the page is opened as localhost', async () => {
      const lanOrigin = new URL((await linksFor(server, token, appId, FORGED)).downloadUrl).origin;
      const viaLan = await linksFor(server, token, appId, new URL(lanOrigin).host);
      expect(new Set(Object.values(origins(viaLan)))).toEqual(new Set([lanOrigin]));

      const viaLoopback = await linksFor(server, token, appId, `localhost:${port}`);
      // What the page at localhost fetches itself (part uploads, files) stays on it; what a phone scans goes to the LAN.
      expect(origins(viaLoopback)).toEqual({
        downloadUrl: lanOrigin,
        profileUrl: lanOrigin,
        partUrl: `http://localhost:${port}`,
        installUrl: `http://localhost:${port}`,
        fileUrl: `http://localhost:${port}`,
      });
    });

    it('refuses a Host on another port of the same machine, or with user info', async () => {
      const lanHost = new URL((await linksFor(server, token, appId, FORGED)).downloadUrl).hostname;
      for (const host of [`${lanHost}:1`, `127.0.0.1:${Number(port) + 1}`, `x@${lanHost}:${port}`]) {
        const links = await linksFor(server, token, appId, host);
        expect(new URL(links.partUrl).host, host).toBe(`${lanHost}:${port}`);
      }
    });
  });

  describe('a server listening on loopback only', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('answers a forged Host with its own loopback address', async () => {
      const token = await server.adminToken();
      const created = await server.request<{ appId: number }>('POST', '/api/app', {
        token,
        body: { appName: '链接', appType: 'native', password: '246810', path: 'links' },
      });
      for (const [name, bytes] of [
        ['a.apk', sampleApk()],
        ['a.ipa', sampleIpa()],
      ] as const) {
        await server.request('POST', '/api/v2/upload_app', {
          token,
          body: { appId: created.body.data.appId, s3Url: await transferFile(server, token, name, bytes) },
        });
      }
      const links = await linksFor(server, token, created.body.data.appId, FORGED);
      expect(new Set(Object.values(origins(links)))).toEqual(new Set([server.url]));
    });
  });

  describe('a server with PUBLIC_URL', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect, { host: '0.0.0.0', publicUrl: 'https://release.example.com/' });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('uses PUBLIC_URL whatever the Host says', async () => {
      const token = await server.adminToken();
      const created = await server.request<{ appId: number }>('POST', '/api/app', {
        token,
        body: { appName: '链接', appType: 'native', password: '246810', path: 'links' },
      });
      for (const [name, bytes] of [
        ['a.apk', sampleApk()],
        ['a.ipa', sampleIpa()],
      ] as const) {
        await server.request('POST', '/api/v2/upload_app', {
          token,
          body: { appId: created.body.data.appId, s3Url: await transferFile(server, token, name, bytes) },
        });
      }
      const links = await linksFor(server, token, created.body.data.appId, FORGED);
      expect(new Set(Object.values(origins(links)))).toEqual(new Set(['https://release.example.com']));
    });
  });
});
