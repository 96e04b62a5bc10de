import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { workflowPushRoutes } from './push.routes.ts';
import { syncRoutes } from './sync.routes.ts';
import { webhookRoutes } from './webhook.routes.ts';

/** Inbound changes: 同步, webhooks, the push API and (with SYNC_INTERVAL_SEC) the repository poll schedule. */
export async function register(app: FastifyInstance, core: Core) {
  const { inbound } = core.shared;
  await app.register(syncRoutes(inbound));
  await app.register(webhookRoutes(inbound));
  await app.register(workflowPushRoutes(inbound));
  // Polling of git and svn workflows; a webhook makes a poll unnecessary but never wrong.
  if (core.config.pollIntervalMs)
    core.scheduler.define({
      name: 'repository-poll',
      title: '仓库轮询',
      intervalMs: core.config.pollIntervalMs,
      run: () => inbound.pollAll(),
    });
}
