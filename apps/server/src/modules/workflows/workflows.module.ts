import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createWorkflowsRepository } from './workflows.repository.ts';
import { workflowsRoutes } from './workflows.routes.ts';
import { createWorkflowsService } from './workflows.service.ts';

/** Workflows of an app (repository, custom, wiki) and their robots. */
export async function register(app: FastifyInstance, core: Core) {
  const { config, shared } = core;
  const workflows = createWorkflowsService({
    workflows: createWorkflowsRepository(core.db),
    policy: shared.policy,
    box: core.box,
    ingest: shared.ingest,
    clock: core.clock,
    robots: { hosts: config.robotHosts, lastItemId: shared.lastPushedItemId },
    allowFileRemotes: config.allowFileRemotes,
    guard: shared.repoGuard,
    // Saved whatever happens to the queueing; the next poll syncs it then.
    onRepoSaved: shared.queueFirstSync,
  });
  await app.register(workflowsRoutes({ workflows, publicUrl: config.publicUrl }));
  return workflows;
}
