import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FlakyProxy {
  url: string;
  /** Every part PUT seen since the last reset: part number and the status answered. */
  partAttempts: Array<{ partNo: number; status: number }>;
  /** Every request seen since the last reset, as `METHOD /path`. */
  requests: string[];
  /** Forgets the attempts seen and breaks parts by the new rule from now on. */
  reset(failPart: FailPart): void;
  close(): Promise<void>;
}

/** The status to answer a part's attempt with instead of forwarding it, or null to forward it. */
export type FailPart = (partNo: number, attempt: number) => number | null;

/**
 * A reverse proxy in front of a test server that breaks part uploads on purpose. As with any reverse
 * proxy, the server must be told its public address (publicUrl = the proxy's url) to sign part URLs
 * that come back through the proxy: it never takes a Host header it does not own. `target` is read per
 * request, so the proxy can be started before the server it fronts.
 */
export async function startFlakyProxy(target: () => string, failPart: FailPart = () => null): Promise<FlakyProxy> {
  const partAttempts: FlakyProxy['partAttempts'] = [];
  const requests: string[] = [];
  const seen = new Map<number, number>();
  let rule = failPart;
  const proxy = http.createServer((req, res) => {
    const upstream = new URL(target());
    const url = new URL(req.url ?? '/', 'http://proxy');
    requests.push(`${req.method} ${url.pathname}`);
    const partNo =
      req.method === 'PUT' && url.pathname === '/api/blob/part' ? Number(url.searchParams.get('partNo')) : null;
    if (partNo !== null) {
      const attempt = (seen.get(partNo) ?? 0) + 1;
      seen.set(partNo, attempt);
      const status = rule(partNo, attempt);
      if (status !== null) {
        partAttempts.push({ partNo, status });
        req.resume();
        req.on('end', () => res.writeHead(status, { 'content-type': 'text/plain' }).end('refused by the flaky proxy'));
        return;
      }
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (partNo !== null) partAttempts.push({ partNo, status: answer.statusCode ?? 0 });
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
    partAttempts,
    requests,
    reset(next) {
      partAttempts.length = 0;
      requests.length = 0;
      seen.clear();
      rule = next;
    },
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}
