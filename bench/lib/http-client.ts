import type { Hash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';

/** The one HTTP client of the benchmarks: node:http, part bodies sent from memory, answers read into a sink. */

export interface PartUrl {
  partNo: number;
  signedUrl: string;
}

function putPart(agent: http.Agent, url: string, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'PUT', agent, headers: { 'content-type': 'application/octet-stream', 'content-length': body.length } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode !== 200)
            return reject(
              new Error(
                `PUT part: HTTP ${response.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`,
              ),
            );
          resolve(String(response.headers.etag ?? ''));
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A whole file in memory, read once: the uploading client then costs the machine almost nothing (see putParts). */
export function readWhole(file: string): Buffer {
  const size = fs.statSync(file).size;
  const buffer = Buffer.allocUnsafeSlow(size);
  const fd = fs.openSync(file, 'r');
  try {
    for (let offset = 0; offset < size; )
      offset += fs.readSync(fd, buffer, offset, Math.min(64 * 1024 * 1024, size - offset), offset);
  } finally {
    fs.closeSync(fd);
  }
  return buffer;
}

/**
 * PUTs every part of `source` to its signed URL, `concurrency` at a time, as the web app and the CLI do.
 * The bytes come from memory: a real uploader is another machine, so neither its disk reads nor its CPU
 * should compete with the server for this machine's disk and its two cores. Streaming the parts from the
 * file cost the client ~2 s of CPU per GiB and, when the host had dropped the page cache, a second stream
 * of reads on the disk the server writes to.
 */
export async function putParts(
  parts: PartUrl[],
  source: Buffer,
  partSize: number,
  concurrency: number,
): Promise<Array<{ partNo: number; etag: string }>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const queue = [...parts];
  const tags: Array<{ partNo: number; etag: string }> = [];
  const worker = async () => {
    for (let part = queue.shift(); part; part = queue.shift()) {
      const start = (part.partNo - 1) * partSize;
      const etag = await putPart(
        agent,
        part.signedUrl,
        source.subarray(start, Math.min(start + partSize, source.length)),
      );
      tags.push({ partNo: part.partNo, etag });
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return tags.sort((a, b) => a.partNo - b.partNo);
}

export interface Downloaded {
  status: number;
  bytes: number;
  ms: number;
  contentRange: string | null;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * GETs `url` over a plain socket reading into one reused 1 MiB buffer (node:http and fetch top out near
 * 500 MiB/s here, below what both servers can send), counting the body into a discard sink or into `hash`.
 * `range` is a Range header value. One request per connection (Connection: close).
 */
export function download(url: string, options: { range?: string; hash?: Hash } = {}): Promise<Downloaded> {
  const target = new URL(url);
  const started = performance.now();
  const request = [
    `GET ${target.pathname}${target.search} HTTP/1.1`,
    `Host: ${target.host}`,
    'Connection: close',
    ...(options.range ? [`Range: ${options.range}`] : []),
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    let head: Buffer | null = Buffer.alloc(0);
    let status = 0;
    let contentRange: string | null = null;
    let bytes = 0;
    const body = (chunk: Buffer) => {
      bytes += chunk.length;
      options.hash?.update(chunk);
    };
    const socket = net.connect({
      host: target.hostname,
      port: Number(target.port || 80),
      onread: {
        buffer: Buffer.allocUnsafe(1024 * 1024),
        callback: (length: number, buffer: Uint8Array) => {
          const chunk = Buffer.from(buffer.buffer, buffer.byteOffset, length);
          if (head === null) {
            body(chunk);
            return true;
          }
          head = Buffer.concat([head, chunk]);
          const end = head.indexOf(HEADER_END);
          if (end < 0) return true;
          const lines = head.subarray(0, end).toString('latin1').split('\r\n');
          status = Number(lines[0]?.split(' ')[1] ?? 0);
          contentRange =
            lines.find((line) => /^content-range:/i.test(line))?.replace(/^content-range:\s*/i, '') ?? null;
          const rest = head.subarray(end + HEADER_END.length);
          head = null;
          body(rest);
          return true;
        },
      },
    });
    socket.once('connect', () => socket.write(request));
    socket.once('error', reject);
    socket.once('end', () => resolve({ status, bytes, ms: performance.now() - started, contentRange }));
  });
}
