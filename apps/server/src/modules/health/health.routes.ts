import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ResultCode } from '@release/contract';
import { ok } from '../../http/envelope.ts';
import type { CheckState, HealthService } from './health.service.ts';

const described: Record<Exclude<CheckState, 'ok'>, string> = {
  unavailable: '不可用',
  full: '空间已满',
  timeout: '响应超时',
};

/**
 * For load balancers and orchestrators, outside /api and public: /healthz says the process answers (no dependency
 * is checked, so a database outage never gets the process restarted); /readyz says whether it can serve — 200, or 503
 * naming what failed. Neither body carries an address, a version or an error text.
 */
export function healthRoutes(health: HealthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'no-store').send(ok({ status: 'ok' })),
    );

    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      const state = await health.readiness();
      reply.header('cache-control', 'no-store');
      if (state.ready) return reply.send(ok({ status: 'ready', database: state.database, storage: state.storage }));
      const failed = [
        state.database === 'ok' ? null : `数据库${described[state.database]}`,
        state.storage === 'ok' ? null : `存储${described[state.storage]}`,
      ].filter((part): part is string => part !== null);
      return reply.status(503).send({
        code: ResultCode.serviceUnavailable,
        msg: `服务未就绪：${failed.join('，')}`,
        data: { status: 'not ready', database: state.database, storage: state.storage },
      });
    });
  };
}
