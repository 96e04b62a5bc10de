import { createHash } from 'node:crypto';
import type { CertificateInfo, PublicUrlReport } from '@release/contract';
import { isIP } from 'node:net';
import tls from 'node:tls';

export const PING_PATH = '/api/system/ping';
const CERT_WARNING_DAYS = 14;

/** Fetches the TLS certificate a host presents, and whether Node's trust store accepts it. */
function peerCertificate(host: string, port: number, timeoutMs: number): Promise<CertificateInfo> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      { host, port, servername: isIP(host) ? undefined : host, rejectUnauthorized: false, timeout: timeoutMs },
      () => {
        const cert = socket.getPeerCertificate();
        const validTo = Date.parse(cert.valid_to);
        resolve({
          subject: cert.subject?.CN ? String(cert.subject.CN) : '',
          issuer: cert.issuer?.CN ? String(cert.issuer.CN) : '',
          validTo,
          daysLeft: Math.floor((validTo - Date.now()) / 86_400_000),
          trusted: socket.authorized,
          trustError: socket.authorizationError ? String(socket.authorizationError) : null,
        });
        socket.end();
      },
    );
    socket.once('timeout', () => socket.destroy(new Error('timeout')));
    socket.once('error', reject);
  });
}

/**
 * The admin's self-check of PUBLIC_URL (the peers' most common failure: OTA installs broken by proxies).
 * The URL is operator configuration, not user input; it is only read, with a short timeout.
 */
export function createPublicUrlCheckService(deps: {
  publicUrl?: string;
  secret: string;
  fetchImpl?: typeof fetch;
  caCertificates?: string[];
}) {
  const deploymentId = createHash('sha256').update(`deployment:${deps.secret}`).digest('hex').slice(0, 16);
  const fetchImpl = deps.fetchImpl ?? fetch;
  return {
    deploymentId,
    async check(): Promise<PublicUrlReport> {
      const problems: string[] = [];
      if (!deps.publicUrl) {
        return {
          publicUrl: null,
          https: false,
          reachable: false,
          sameDeployment: false,
          certificate: null,
          problems: [
            '未设置 PUBLIC_URL：链接按请求地址生成，经过反向代理时可能不正确；iOS 在线安装需要 https 的 PUBLIC_URL',
          ],
        };
      }
      const url = new URL(deps.publicUrl);
      const https = url.protocol === 'https:';
      if (!https) problems.push('PUBLIC_URL 不是 https：iOS 只允许通过 https 在线安装');
      let certificate: CertificateInfo | null = null;
      if (https) {
        certificate = await peerCertificate(url.hostname, Number(url.port || 443), 5000).catch((error: unknown) => {
          problems.push(`无法建立 TLS 连接：${(error as Error).message}`);
          return null;
        });
        if (certificate && !certificate.trusted)
          problems.push(`证书不受信任（${certificate.trustError ?? '未知原因'}）：iOS 设备将无法安装`);
        if (certificate && certificate.daysLeft < CERT_WARNING_DAYS)
          problems.push(`证书将在 ${certificate.daysLeft} 天后过期`);
      }
      let reachable = false;
      let sameDeployment = false;
      try {
        const res = await fetchImpl(new URL(PING_PATH, url).toString(), {
          signal: AbortSignal.timeout(5000),
          redirect: 'manual',
        });
        reachable = res.ok;
        const body = (await res.json().catch(() => null)) as { data?: { deploymentId?: string } } | null;
        sameDeployment = body?.data?.deploymentId === deploymentId;
        if (!res.ok) problems.push(`访问 PUBLIC_URL 返回 HTTP ${res.status}`);
        else if (!sameDeployment) problems.push('PUBLIC_URL 指向的不是本系统（请检查反向代理配置）');
      } catch (error) {
        problems.push(`无法访问 PUBLIC_URL：${(error as Error).message}`);
      }
      return { publicUrl: deps.publicUrl, https, reachable, sameDeployment, certificate, problems };
    },
  };
}
export type PublicUrlCheckService = ReturnType<typeof createPublicUrlCheckService>;
