import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FlakyProxy {
  url: string;
  /** Every part PUT seen: part number and the status answered. */
  partAttempts: Array<{ partNo: number; status: number }>;
  close(): Promise<void>;
}

/**
 * A reverse proxy in front of a test server that breaks part uploads on purpose: `failPart` returns
 * the status to answer instead of forwarding (or null to forward). The Host header is kept, so the
 * server signs part URLs that come back through the proxy.
 */
export async function startFlakyProxy(target: string, failPart: (partNo: number, attempt: number) => number | null): Promise<FlakyProxy> {
  const partAttempts: FlakyProxy['partAttempts'] = [];
  const seen = new Map<number, number>();
  const upstream = new URL(target);
  const proxy = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const partNo = req.method === 'PUT' && url.pathname === '/api/blob/part' ? Number(url.searchParams.get('partNo')) : null;
    if (partNo !== null) {
      const attempt = (seen.get(partNo) ?? 0) + 1;
      seen.set(partNo, attempt);
      const status = failPart(partNo, attempt);
      if (status !== null) {
        partAttempts.push({ partNo, status });
        req.resume();
        req.on('end', () => res.writeHead(status, { 'content-type': 'text/plain' }).end('refused by the flaky proxy'));
        return;
      }
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (partNo !== null) partAttempts.push({ partNo, status: answer.statusCode ?? 0 });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    partAttempts,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}
