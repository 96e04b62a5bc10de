import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Core } from '../../core.ts';
import type { Database } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { createLarkBitableClient } from '../../integrations/lark/lark-bitable.ts';
import type { LarkClient } from '../../integrations/lark/lark-client.ts';
import { createLarkDocsClient } from '../../integrations/lark/lark-docs-client.ts';
import { createLarkTaskClient } from '../../integrations/lark/lark-task.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { TasksDirectory } from '../tasks/tasks-directory.ts';
import { createSyncEngine } from './sync-engine.ts';
import { createSyncRunner } from './sync-runner.ts';
import { createPullJob, createPushJob, PULL_INTERVAL_MS } from './tasks-sync.jobs.ts';
import { createTasksSyncRepository } from './tasks-sync.repository.ts';
import { tasksSyncRoutes } from './tasks-sync.routes.ts';
import { createTasksSyncService } from './tasks-sync.service.ts';

/**
 * The Lark sync of tasks and bugs, when a Lark app is configured: its jobs on the queue, and the hooks the tracker
 * (`fieldOptions`, `onChangeQuietly`) and lark-docs (`baseChangedQuietly`) call. Null without Lark (the tracker
 * works alone). Built once in core-services.ts, as the tracker and lark-docs call it.
 */
export function createTasksSync(deps: {
  db: Kysely<Database>;
  clock: Clock;
  lark: LarkClient | null;
  jobs: JobQueue;
  policy: AppsPolicy;
  blobs: BlobStore;
  logger: Logger;
  /** The tracker's records (modules/tasks). */
  tasks: TasksDirectory;
}) {
  if (!deps.lark) return null;
  const log = (message: string) => deps.logger.warn(message);
  const sync = createTasksSyncRepository(deps.db);
  const taskClient = createLarkTaskClient(deps.lark);
  const bitableClient = createLarkBitableClient(deps.lark);
  const engine = createSyncEngine({ tasks: deps.tasks, sync, clock: deps.clock });
  const runner = createSyncRunner({
    tasks: deps.tasks,
    sync,
    engine,
    taskClient,
    bitableClient,
    clock: deps.clock,
    larkAppId: deps.lark.config.appId,
    blobs: deps.blobs,
    log,
  });
  const pushJob = createPushJob({ runner, sync, clock: deps.clock });
  const pull = createPullJob({ runner, sync, clock: deps.clock, jobs: () => deps.jobs });
  deps.jobs.register(pushJob);
  deps.jobs.register(pull.job);
  const docs = createLarkDocsClient(deps.lark.config);
  const subscribeBase = (appToken: string) => docs.subscribe(appToken, 'bitable');
  const service = createTasksSyncService({
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
    log,
  });
  const { logger } = deps;
  return {
    service,
    pullAll: () => pull.pullAll(),
    fieldOptions: service.fieldOptions,
    /** A change is saved whatever happens to its push; a push that could not be queued is retried by the next pull. */
    onChangeQuietly: (...args: Parameters<typeof service.onChange>) =>
      service.onChange(...args).catch((err: unknown) => logger.error({ err }, 'queueing a Lark push failed')),
    /** A bug table edited in Lark is pulled now; the schedule still comes if this cannot be queued. */
    baseChangedQuietly: (appToken: string, eventId: string) =>
      service
        .baseChanged(appToken, eventId)
        .catch((err: unknown) => logger.error({ err }, 'queueing a Lark pull failed')),
  };
}

/** The Lark side of tasks: linking an app to a task list and a Bitable, the pull schedule (with a Lark app). */
export async function register(app: FastifyInstance, core: Core): Promise<void> {
  const sync = core.shared.tasksSync;
  if (sync)
    core.scheduler.define({
      name: 'tasks-sync.pull',
      title: '飞书任务同步',
      intervalMs: PULL_INTERVAL_MS,
      run: () => sync.pullAll(),
    });
  await app.register(tasksSyncRoutes(sync?.service ?? null));
}
