import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { Clock } from '../../lib/clock.ts';
import { createLarkBitableClient } from '../../integrations/lark/lark-bitable.ts';
import type { LarkClient } from '../../integrations/lark/lark-client.ts';
import { createLarkDocsClient } from '../../integrations/lark/lark-docs-client.ts';
import { createLarkTaskClient } from '../../integrations/lark/lark-task.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import { createTasksRepository } from '../tasks/tasks.repository.ts';
import { createSyncEngine } from './sync-engine.ts';
import { createSyncRunner } from './sync-runner.ts';
import { createPullJob, createPushJob, PULL_INTERVAL_MS } from './tasks-sync.jobs.ts';
import { createTasksSyncRepository } from './tasks-sync.repository.ts';
import { tasksSyncRoutes } from './tasks-sync.routes.ts';
import { createTasksSyncService, type TasksSyncService } from './tasks-sync.service.ts';

/**
 * The Lark sync of tasks and bugs, when a Lark app is configured: its jobs on the queue, its routes, and the hooks
 * the tracker calls (`fieldOptions`, `onChange`). Null without Lark (the tracker works alone).
 */
export function createTasksSync(deps: {
  db: Kysely<Database>;
  clock: Clock;
  lark: LarkClient | null;
  jobs: JobQueue;
  scheduler: Scheduler;
  policy: AppsPolicy;
  blobs: BlobStore;
  log?: (message: string) => void;
}): TasksSyncService | null {
  if (!deps.lark) return null;
  const sync = createTasksSyncRepository(deps.db);
  const taskClient = createLarkTaskClient(deps.lark);
  const bitableClient = createLarkBitableClient(deps.lark);
  const engine = createSyncEngine({ tasks: createTasksRepository(deps.db), sync, clock: deps.clock });
  const runner = createSyncRunner({
    tasks: createTasksRepository(deps.db),
    sync,
    engine,
    taskClient,
    bitableClient,
    clock: deps.clock,
    larkAppId: deps.lark.config.appId,
    blobs: deps.blobs,
    log: deps.log,
  });
  const pushJob = createPushJob({ runner, sync, clock: deps.clock });
  const pull = createPullJob({ runner, sync, clock: deps.clock, jobs: () => deps.jobs });
  deps.jobs.register(pushJob);
  deps.jobs.register(pull.job);
  deps.scheduler.define({
    name: 'tasks-sync.pull',
    title: '飞书任务同步',
    intervalMs: PULL_INTERVAL_MS,
    run: () => pull.pullAll(),
  });
  const docs = createLarkDocsClient(deps.lark.config);
  const subscribeBase = (appToken: string) => docs.subscribe(appToken, 'bitable');
  return createTasksSyncService({
    lark: deps.lark,
    taskClient,
    bitableClient,
    sync,
    runner,
    policy: deps.policy,
    jobs: deps.jobs,
    pushJob,
    pull,
    clock: deps.clock,
    subscribeBase,
    log: deps.log,
  });
}

export async function registerTasksSync(app: FastifyInstance, service: TasksSyncService | null): Promise<void> {
  await app.register(tasksSyncRoutes(service));
}
