import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JOB_QUEUE_PATH, jobQueueRow } from '@release/contract';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { JobQueue } from '../../jobs/queue.ts';

/** 设置 → 后台任务 → 任务队列 (admins): the durable queue per kind, the figures /metrics gives as release_jobs. */
export function jobQueueRoutes(jobs: Pick<JobQueue, 'queueFigures'>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      JOB_QUEUE_PATH,
      {
        config: { access: 'admin' },
        schema: {
          tags: ['系统'],
          summary: '任务队列',
          description:
            '管理员（角色等级 100），其他用户 403。按任务类型返回等待中、运行中、失败的任务数，以及最早到期的等待任务已等待的毫秒数（与 /metrics 的 release_jobs 相同）。',
          response: { 200: envelopeSchema(z.array(jobQueueRow)) },
        },
      },
      async () => ok(await jobs.queueFigures()),
    );
  };
}
