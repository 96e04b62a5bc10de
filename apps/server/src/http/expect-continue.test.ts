import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerExpectContinue } from './expect-continue.ts';

/** What a client that asks `Expect: 100-continue` sees: whether 100 came, the status and the answer's body. */
type Seen = { continued: boolean; status: number; body: string };

const LIMIT = 1024;

describe('Expect: 100-continue', () => {
  let app: FastifyInstance;
  let port = 0;

  beforeAll(async () => {
    app = Fastify();
    registerExpectContinue(app);
    app.addContentTypeParser('application/octet-stream', (_request, _payload, done) => done(null));
    app.post('/upload', async (request, reply) => {
      if (Number(request.headers['content-length']) > LIMIT) return reply.code(413).send({ message: '安装包过大' });
      let length = 0;
      for await (const chunk of request.raw) length += (chunk as Buffer).length;
      return { length };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  /** Sends the headers, and the body only once 100 Continue arrives (as curl does). */
  const send = (bytes: number): Promise<Seen> =>
    new Promise((resolve, reject) => {
      let continued = false;
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/upload',
        headers: { expect: '100-continue', 'content-type': 'application/octet-stream', 'content-length': bytes },
      });
      req.on('continue', () => {
        continued = true;
        req.end(Buffer.alloc(bytes, 1));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({ continued, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.flushHeaders();
    });

  it('refuses a body declared too large before asking for it', async () => {
    const seen = await send(LIMIT * 64);
    expect(seen).toEqual({ continued: false, status: 413, body: JSON.stringify({ message: '安装包过大' }) });
  });

  it('asks for a body the route reads, and the route reads all of it', async () => {
    const seen = await send(LIMIT - 24);
    expect(seen).toEqual({ continued: true, status: 200, body: JSON.stringify({ length: LIMIT - 24 }) });
  });
});
