import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createCommitLogsRepository } from './commit-logs.repository.ts';
import { commitLogsRoutes } from './commit-logs.routes.ts';
import { createCommitLogsService } from './commit-logs.service.ts';

/** The update items of an app's workflows (commit ingest, which other modules call, is in the core). */
export async function register(app: FastifyInstance, core: Core) {
  const { shared } = core;
  const logs = createCommitLogsService({
    logs: createCommitLogsRepository(core.db),
    workflows: shared.workflows,
    versions: shared.versions,
    members: shared.members,
    policy: shared.policy,
    clock: core.clock,
  });
  await app.register(commitLogsRoutes({ logs, ...core.links }));
}
