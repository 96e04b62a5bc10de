import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiResponse } from './test-app.ts';

/**
 * Requests from other client addresses: on Linux every 127.0.0.0/8 address is this machine's loopback, so a request
 * sent from 127.0.0.5 reaches the server with that peer address, as one from another machine would.
 */
export function requestFrom<T = unknown>(
  baseUrl: string,
  from: string,
  method: string,
  urlPath: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const target = new URL(urlPath, baseUrl);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        headers,
        localAddress: from,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as ApiResponse<T>['body'] });
          } catch {
            reject(new Error(`${method} ${urlPath} answered non-JSON (${res.statusCode}): ${text.slice(0, 200)}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy as nginx is set up in front of the server (`proxy_set_header X-Forwarded-For
 * $proxy_add_x_forwarded_for`): it appends the address of whoever connected to it to the X-Forwarded-For the client
 * sent (which the client may have made up), and reaches the server from `proxyAddress`.
 */
export async function startForwardingProxy(target: string, proxyAddress: string): Promise<ForwardingProxy> {
  const upstream = new URL(target);
  const proxy = http.createServer((req, res) => {
    const sent = req.headers['x-forwarded-for'];
    const client = req.socket.remoteAddress ?? '';
    const headers = { ...req.headers, 'x-forwarded-for': sent ? `${String(sent)}, ${client}` : client };
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers,
        localAddress: proxyAddress,
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}
