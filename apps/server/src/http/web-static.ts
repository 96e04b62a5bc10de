import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { Messages, ResultCode } from '@release/contract';

/** Serves the built web app; unknown non-API GETs get index.html so client routes load directly. */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const hasWeb = distDir !== undefined && fs.existsSync(path.join(distDir, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      // Vite names assets by content hash, so they never change; index.html must always be fresh.
      setHeaders: (res, filePath) => {
        res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const wantsPage = request.method === 'GET' && !pathname.startsWith('/api/') && pathname !== '/api';
    if (hasWeb && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ code: ResultCode.notFound, msg: `${Messages.notFound}：${request.method} ${pathname}`, data: null });
  });
}
