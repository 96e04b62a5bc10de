import type { FastifyInstance } from 'fastify';

/** Conservative headers on every answer; pages are not framed by other sites, types are not sniffed. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'SAMEORIGIN');
    reply.header('referrer-policy', 'same-origin');
  });
}
