import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import type { LinkDeps } from '../../http/links.ts';
import { createTaskCommentsService } from './task-comments.service.ts';
import { createTasksRepository } from './tasks.repository.ts';
import { tasksRoutes } from './tasks.routes.ts';
import { createTasksService, type TasksServiceDeps } from './tasks.service.ts';

export interface TasksModuleDeps extends LinkDeps {
  db: Kysely<Database>;
  clock: Clock;
  policy: AppsPolicy;
  uploads: UploadsService;
  larkEnabled: boolean;
  /** Hooks for the Lark sync: the linked Bitable's options, and a call after every local change. */
  fieldOptions?: TasksServiceDeps['fieldOptions'];
  onChange?: TasksServiceDeps['onChange'];
}

/** Wires the task and bug tracker and registers its routes; returns its parts for the Lark sync. */
export async function registerTasks(app: FastifyInstance, deps: TasksModuleDeps) {
  const repo = createTasksRepository(deps.db);
  const tasks = createTasksService({
    tasks: repo,
    policy: deps.policy,
    uploads: deps.uploads,
    clock: deps.clock,
    larkEnabled: deps.larkEnabled,
    fieldOptions: deps.fieldOptions,
    onChange: deps.onChange,
  });
  const comments = createTaskCommentsService({ tasks: repo, records: tasks, policy: deps.policy, clock: deps.clock });
  await app.register(
    tasksRoutes({
      tasks,
      comments,
      blobs: deps.blobs,
      publicUrl: deps.publicUrl,
      downloadBaseUrl: deps.downloadBaseUrl,
      mediaLinks: deps.mediaLinks,
    }),
  );
  return { repo, tasks, comments };
}
