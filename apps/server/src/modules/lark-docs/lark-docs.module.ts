import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Core } from '../../core.ts';
import type { Database } from '../../db/schema.ts';
import type { LarkConfig } from '../../integrations/lark/lark-client.ts';
import { createLarkDocsClient } from '../../integrations/lark/lark-docs-client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { CommitIngestService } from '../commit-logs/commit-ingest.service.ts';
import type { IdentitiesDirectory } from '../sso/identities-directory.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';
import type { WorkflowsDirectory } from '../workflows/workflows-directory.ts';
import { createLarkDocFollowsService } from './lark-doc-follows.service.ts';
import { createLarkDocsRepository } from './lark-docs.repository.ts';
import { larkDocsRoutes } from './lark-docs.routes.ts';
import { createLarkEventsService } from './lark-events.service.ts';
import { larkEventRoutes } from './lark-events.routes.ts';
import { createWikiService } from './wiki.service.ts';

/** The tenant's document host without a trailing slash. */
const docsBase = (url: string) => url.replace(/\/+$/, '');

/**
 * The reader of Lark's document events (queued by the inbound service, read into update items of the following wiki
 * workflows). core-services.ts builds it before the inbound service and hands it over.
 */
export function createLarkDocumentReader(deps: {
  db: Kysely<Database>;
  clock: Clock;
  lark: LarkConfig | null;
  docsBaseUrl: string;
  workflows: WorkflowsDirectory;
  identities: IdentitiesDirectory;
  /** Commit ingest writing through the event's transaction. */
  ingestOn: (executor: Kysely<Database>) => CommitIngestService;
  onNewItems?: (workflows: WorkflowRecord[]) => Promise<void>;
  onBaseChanged?: (appToken: string, eventId: string) => Promise<unknown>;
  logger: Logger;
}) {
  return createLarkEventsService({
    repo: createLarkDocsRepository(deps.db),
    workflows: deps.workflows,
    identities: deps.identities,
    docs: deps.lark ? createLarkDocsClient(deps.lark) : null,
    docsBaseUrl: docsBase(deps.docsBaseUrl),
    clock: deps.clock,
    ingestOn: deps.ingestOn,
    onNewItems: deps.onNewItems,
    onBaseChanged: deps.onBaseChanged,
    log: (message) => deps.logger.warn(message),
  });
}

/** The wiki page, followed documents and Lark's event endpoint (its events go to the inbound service). */
export async function register(app: FastifyInstance, core: Core) {
  const { config } = core;
  const docs = config.lark ? createLarkDocsClient(config.lark) : null;
  const docsBaseUrl = docsBase(config.larkDocsBaseUrl);
  const follows = createLarkDocFollowsService({
    repo: createLarkDocsRepository(core.db),
    workflows: core.shared.workflows,
    policy: core.shared.policy,
    docs,
    docsBaseUrl,
    clock: core.clock,
  });
  await app.register(larkEventRoutes({ keys: config.larkEvents, accept: core.shared.inbound.larkDocumentEvent }));
  await app.register(larkDocsRoutes({ wiki: createWikiService({ docs, docsBaseUrl }), follows }));
}
