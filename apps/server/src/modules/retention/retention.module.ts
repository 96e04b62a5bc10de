import type { FastifyInstance } from 'fastify';
import { RetentionMessages } from '@release/contract';
import type { Core } from '../../core.ts';
import type { VersionRemovalService } from '../versions/version-removal.service.ts';
import { retentionRoutes } from './retention.routes.ts';
import { createRetentionService } from './retention.service.ts';

/** How often the schedule 版本保留清理 applies the rules. */
export const RETENTION_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** Retention rules per app, their dry run, 保留 marks, and the schedule that applies them. */
export async function register(app: FastifyInstance, core: Core, removal: VersionRemovalService) {
  const retention = createRetentionService({
    db: core.db,
    settings: core.shared.settingsStore,
    policy: core.shared.policy,
    removal,
    clock: core.clock,
    logger: core.logger,
  });
  core.scheduler.define({
    name: 'retention',
    title: RetentionMessages.scheduleTitle,
    intervalMs: RETENTION_INTERVAL_MS,
    run: async () => {
      await retention.applyAll();
    },
  });
  await app.register(retentionRoutes(retention));
  return retention;
}
