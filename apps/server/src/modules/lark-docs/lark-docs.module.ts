import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { LarkConfig } from '../../integrations/lark/lark-client.ts';
import { createLarkDocsClient } from '../../integrations/lark/lark-docs-client.ts';
import type { LarkEventKeys } from '../../integrations/lark/lark-event-envelope.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import { createIdentitiesRepository } from '../sso/identities.repository.ts';
import type { WorkflowRecord, WorkflowsRepository } from '../workflows/workflows.repository.ts';
import { createLarkDocFollowsService } from './lark-doc-follows.service.ts';
import { createLarkDocsRepository } from './lark-docs.repository.ts';
import { larkDocsRoutes } from './lark-docs.routes.ts';
import { createLarkEventsService, type IncomingEvent } from './lark-events.service.ts';
import { larkEventRoutes } from './lark-events.routes.ts';
import { createWikiService } from './wiki.service.ts';

export interface LarkDocsDeps {
  db: Kysely<Database>;
  clock: Clock;
  lark: LarkConfig | null;
  /** Event subscription keys; the event endpoint is off without them. */
  eventKeys: LarkEventKeys | null;
  /** The tenant's document host (LARK_DOCS_BASE_URL), for links that open a document in Lark. */
  docsBaseUrl: string;
  policy: AppsPolicy;
  /** Queues a verified event (the inbound service: the request is answered once it is queued); false for a redelivery. */
  acceptEvent: (incoming: IncomingEvent) => Promise<boolean>;
  workflows: WorkflowsRepository;
  onNewItems?: (workflows: WorkflowRecord[]) => Promise<void>;
  onBaseChanged?: (appToken: string, eventId: string) => Promise<unknown>;
}

/** Wires the wiki page, followed documents and the reader of Lark's document events, and registers their routes. */
export async function registerLarkDocs(app: FastifyInstance, deps: LarkDocsDeps) {
  const repo = createLarkDocsRepository(deps.db);
  const docs = deps.lark ? createLarkDocsClient(deps.lark) : null;
  const docsBaseUrl = deps.docsBaseUrl.replace(/\/+$/, '');
  const events = createLarkEventsService({
    repo,
    workflows: deps.workflows,
    identities: createIdentitiesRepository(deps.db),
    docs,
    docsBaseUrl,
    clock: deps.clock,
    onNewItems: deps.onNewItems,
    onBaseChanged: deps.onBaseChanged,
    log: (message) => app.log.warn(message),
  });
  const follows = createLarkDocFollowsService({
    repo,
    workflows: deps.workflows,
    policy: deps.policy,
    docs,
    docsBaseUrl,
    clock: deps.clock,
  });
  await app.register(larkEventRoutes({ keys: deps.eventKeys, accept: deps.acceptEvent }));
  await app.register(larkDocsRoutes({ wiki: createWikiService({ docs, docsBaseUrl }), follows }));
  return { repo, events, follows };
}
