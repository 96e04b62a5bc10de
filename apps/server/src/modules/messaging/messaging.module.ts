import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { VersionChanges } from '@release/contract';
import type { Core, CoreConfig } from '../../core.ts';
import type { Database } from '../../db/schema.ts';
import type { MediaLinks } from '../../http/media-links.ts';
import type { LarkClient } from '../../integrations/lark/lark-client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import { createAutoPushJob } from './auto-push.job.ts';
import { createDeliveriesRepository } from './deliveries.repository.ts';
import { createDeliveryLogService } from './delivery-log.service.ts';
import { createDeliveryQueue } from './delivery-queue.ts';
import { createDeliveryJob } from './delivery.job.ts';
import { createLarkIcons } from './lark-icon.ts';
import type { AppMetrics } from '../../lib/app-metrics.ts';
import { createMessagingRepository } from './messaging.repository.ts';
import { messagingRoutes } from './messaging.routes.ts';
import { createMessagingService } from './messaging.service.ts';
import { createReceiverResolver } from './receivers.ts';

/**
 * Messages to robots and Lark chats (built once in core-services.ts, as other modules send them): deliveries as
 * durable jobs, autoPush of new items, the delivery log, and announcing a version.
 */
export function createMessaging(deps: {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  jobs: JobQueue;
  blobs: BlobStore;
  box: SecretBox;
  mediaLinks: MediaLinks;
  policy: AppsPolicy;
  config: Pick<CoreConfig, 'robotHosts' | 'publicUrl'>;
  lark: LarkClient | null;
  /** Counts settled deliveries for /metrics. */
  metrics: Pick<AppMetrics, 'deliveries'>;
  /** What changed since the build before a version (issue 19), listed by the pushes of a package. */
  changesOf?: (versionId: number) => Promise<VersionChanges | null>;
}) {
  const { db, clock, jobs } = deps;
  const hosts = deps.config.robotHosts;
  const messagingRepo = createMessagingRepository(db);
  const deliveriesRepo = createDeliveriesRepository(db);
  const icons = createLarkIcons({ db, blobs: deps.blobs, lark: deps.lark, clock, logger: deps.logger });
  const deliveryJob = createDeliveryJob({
    deliveries: deliveriesRepo,
    messaging: messagingRepo,
    box: deps.box,
    lark: deps.lark,
    hosts,
    clock,
    icons,
    metrics: deps.metrics,
  });
  const queue = createDeliveryQueue({ db, deliveries: deliveriesRepo, jobs, job: () => deliveryJob, clock });
  const autoPush = createAutoPushJob({
    db,
    messaging: messagingRepo,
    queue,
    jobs,
    hosts,
    publicUrl: deps.config.publicUrl ?? null,
    clock,
    mediaLinks: deps.mediaLinks,
  });
  jobs.register(deliveryJob);
  jobs.register(autoPush.job);
  const deliveryLog = createDeliveryLogService({ db, deliveries: deliveriesRepo, jobs, clock });
  const messaging = createMessagingService({
    messaging: messagingRepo,
    receivers: createReceiverResolver({ messaging: messagingRepo, hosts, larkEnabled: Boolean(deps.lark) }),
    queue,
    log: deliveryLog,
    policy: deps.policy,
    mediaLinks: deps.mediaLinks,
    changesOf: deps.changesOf,
  });
  return {
    messaging,
    deliveryJob,
    autoPush,
    deliveryLog,
    /** autoPush of new items that never fails its caller (the next new item queues it again). */
    autoPushQuietly: (targets: Parameters<typeof autoPush.trigger>[0]) =>
      autoPush.trigger(targets).catch((err: unknown) => deps.logger.error({ err }, 'queueing autoPush failed')),
    /** The newest item a workflow's robot was sent (the workflow page's robot settings). */
    lastPushedItemId: (workflowId: number) => messagingRepo.lastItemId(workflowId),
  };
}

/** `/api/messaging`: manual pushes and the delivery log. */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(
    messagingRoutes({
      messaging: core.shared.messaging,
      log: core.shared.deliveryLog,
      publicUrl: core.config.publicUrl,
    }),
  );
}
