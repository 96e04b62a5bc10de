import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

interface Report {
  publicUrl: string | null;
  https: boolean;
  reachable: boolean;
  sameDeployment: boolean;
  certificate: { trusted: boolean; daysLeft: number } | null;
  problems: string[];
}

function selfSignedHttps(): Promise<{ url: string; close: () => Promise<void> }> {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 5 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'release.test' }]);
  cert.setIssuer([{ name: 'commonName', value: 'release.test' }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const server = https.createServer(
    { key: forge.pki.privateKeyToPem(keys.privateKey), cert: forge.pki.certificateToPem(cert) },
    (_req, res) => res.end('{}'),
  );
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

// The self-check talks only to loopback servers made here.
describe('the admin self-check of PUBLIC_URL', () => {
  const servers: TestServer[] = [];
  let target: TestServer;
  const check = async (server: TestServer) =>
    (await server.request<Report>('GET', '/api/system/public_url_check', { token: await server.adminToken() })).body
      .data;

  beforeAll(async () => {
    target = await startTestServer('sqlite');
    servers.push(target);
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('says what is missing when PUBLIC_URL is not set', async () => {
    const report = await check(target);
    expect(report.publicUrl).toBeNull();
    expect(report.problems[0]).toMatch(/^未设置 PUBLIC_URL/);
  });

  it('recognises its own deployment behind the URL, and warns that plain http cannot install on iOS', async () => {
    const viaUrl = await startTestServer('sqlite', { publicUrl: target.url });
    servers.push(viaUrl);
    const report = await check(viaUrl);
    expect(report).toMatchObject({ https: false, reachable: true, sameDeployment: true });
    expect(report.problems).toEqual(['PUBLIC_URL 不是 https：iOS 只允许通过 https 在线安装']);
  });

  it('notices a URL that leads to another site', async () => {
    const other = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>another site</html>'),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const misrouted = await startTestServer('sqlite', {
      publicUrl: `http://127.0.0.1:${(other.address() as AddressInfo).port}`,
    });
    servers.push(misrouted);
    const report = await check(misrouted);
    expect(report).toMatchObject({ reachable: true, sameDeployment: false });
    expect(report.problems).toContain('PUBLIC_URL 指向的不是本系统（请检查反向代理配置）');
    await new Promise((resolve) => other.close(resolve));
  });

  it('reports an untrusted, soon-expiring certificate', async () => {
    const site = await selfSignedHttps();
    const behindTls = await startTestServer('sqlite', { publicUrl: site.url });
    servers.push(behindTls);
    const report = await check(behindTls);
    expect(report.https).toBe(true);
    expect(report.certificate).toMatchObject({ trusted: false });
    expect(report.certificate?.daysLeft).toBeLessThan(6);
    expect(report.problems.some((p) => p.startsWith('证书不受信任'))).toBe(true);
    expect(report.problems.some((p) => /证书将在 \d 天后过期/.test(p))).toBe(true);
    await site.close();
  });
});
