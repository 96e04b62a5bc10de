import type { Hash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * A client of the site behind nginx: HTTPS to release.test (resolved to 127.0.0.1), verified against the site's
 * self-signed certificate, connections kept alive as a browser or a CI uploader keeps them.
 */

const toLoopback: LookupFunction = (_hostname, options, callback) => {
  if (typeof options === 'object' && options.all)
    (callback as (e: null, a: object[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

export function siteAgent(certificate: string, maxSockets: number): https.Agent {
  return new https.Agent({ keepAlive: true, maxSockets, ca: certificate, lookup: toLoopback });
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, unless it went into `hash`. */
  body: Buffer;
  bytes: number;
}

/** One request; the answer's body is counted into `hash` (and not kept) when one is given. */
export function request(
  agent: https.Agent,
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: Buffer | string; hash?: Hash } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method,
        agent,
        headers: {
          ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (options.hash) options.hash.update(chunk);
          else chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), bytes }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The JSON API through the site: throws unless the envelope says 200. */
export async function api<T>(
  agent: https.Agent,
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const answer = await request(agent, method, `${base}${path}`, {
    headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let envelope: { code: number; msg: string; data: T };
  try {
    envelope = JSON.parse(answer.body.toString('utf8')) as typeof envelope;
  } catch {
    throw new Error(`${method} ${path}: HTTP ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`);
  }
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}
