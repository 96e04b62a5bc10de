import { WIKI_EVENT_LABELS, type CustomPushBody } from '@release/contract';
import { LarkApiError } from '../../integrations/lark/lark-client.ts';
import type { LarkDocsClient } from '../../integrations/lark/lark-docs-client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CommitIngestService } from '../commit-logs/commit-ingest.service.ts';
import type { IdentitiesDirectory } from '../sso/identities-directory.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';
import type { WorkflowsDirectory } from '../workflows/workflows-directory.ts';
import { docPath, fieldChangeText, operatorOpenId, recordChangeText } from './lark-doc-changes.ts';
import { createLarkDocsRepository, type LarkDocsRepository } from './lark-docs.repository.ts';

type Json = Record<string, unknown>;
type Follow = Awaited<ReturnType<LarkDocsRepository['followsOfToken']>>[number];
type Item = CustomPushBody['items'][number];

/** The SPEC §3 name of what happened; Lark's folder event is the spec's drive.file.create_v1 (新增文档). */
const SPEC_EVENT = {
  'drive.file.created_in_folder_v1': 'drive.file.create_v1',
  'drive.file.edit_v1': 'drive.file.edit_v1',
  'drive.file.bitable_record_changed_v1': 'drive.file.bitable_record_changed_v1',
  'drive.file.bitable_field_changed_v1': 'drive.file.bitable_field_changed_v1',
} as const;
type LarkEventType = keyof typeof SPEC_EVENT;
const BITABLE_EVENTS = new Set<string>(['drive.file.bitable_record_changed_v1', 'drive.file.bitable_field_changed_v1']);
type SpecEvent = (typeof SPEC_EVENT)[LarkEventType];

/** Wiki-event metadata keeps at most this much text per side (the contract schema's limit). */
const MAX_TEXT = 200_000;

export interface IncomingEvent {
  eventId: string;
  eventType: string;
  createTime: number;
  event: Json;
}

export type EventOutcome =
  | { status: 'duplicate' }
  | { status: 'ignored'; reason: string }
  | { status: 'stored'; created: number };

interface Change {
  /** Followers of the changed document (or of the folder it appeared in). */
  follows: Follow[];
  event: SpecEvent;
  title: (follow: Follow) => string;
  url: (follow: Follow) => string | null;
  before: (follow: Follow) => string | null;
  after: string | null;
  /** What the message adds after the title (bitable summaries). */
  detail?: string;
  /** The document's text to remember as the next "before". */
  seen?: string | null;
  /** The document's current title, when Lark gave one. */
  retitle?: string;
  time: number;
}

const clip = (text: string | null) => (text === null ? null : text.slice(0, MAX_TEXT));

/**
 * Lark document events (contract §F) become update items of the wiki workflows following the document, with
 * before/after text for the wiki-difference modal. Remote reads happen first; the event id, the items and the
 * remembered text are then written in one transaction, so a redelivered event changes nothing.
 */
export function createLarkEventsService(deps: {
  repo: LarkDocsRepository;
  workflows: WorkflowsDirectory;
  identities: IdentitiesDirectory;
  docs: LarkDocsClient | null;
  docsBaseUrl: string;
  clock: Clock;
  /** Commit ingest writing through the given transaction (the composition root builds it: commit-logs owns it). */
  ingestOn: (executor: Kysely<Database>) => CommitIngestService;
  /** Told which workflows just got new items (autoPush sends them). */
  onNewItems?: (workflows: WorkflowRecord[]) => Promise<void>;
  /** Told that a Bitable base changed (the task sync pulls the apps whose bug table it is). */
  onBaseChanged?: (appToken: string, eventId: string) => Promise<unknown>;
  log?: (message: string) => void;
}) {
  const { repo, docs, clock } = deps;

  /** The document's text; undefined when Lark would not give it (the item still shows, without a diff). */
  async function textOf(token: string, type: string): Promise<string | null | undefined> {
    if (!docs || type !== 'docx') return null;
    try {
      return await docs.docxText(token);
    } catch (error) {
      if (!(error instanceof LarkApiError)) throw error;
      deps.log?.(`reading ${token} failed: ${error.code} ${error.message}`);
      return undefined;
    }
  }

  async function titleOf(token: string, type: string): Promise<string> {
    if (!docs) return token;
    try {
      return (await docs.getNode(token, type)).title || token;
    } catch {
      // Not in a wiki (131005): Lark gives no title without the drive meta call; the token still identifies it.
      return token;
    }
  }

  async function authorOf(event: Json): Promise<string> {
    const openId = operatorOpenId(event);
    if (!openId) return '飞书用户';
    const identity = await deps.identities.findBySubject('lark', openId);
    return identity?.display_name ?? openId;
  }

  async function changeOf(type: LarkEventType, event: Json, time: number): Promise<Change | string> {
    const fileToken = String(event.file_token ?? '');
    if (!fileToken) return 'no file_token';
    if (type === 'drive.file.created_in_folder_v1') {
      const follows = await repo.followsOfToken(String(event.folder_token ?? ''));
      if (!follows.length) return 'folder not followed';
      const fileType = String(event.file_type ?? 'docx');
      const [title, after] = await Promise.all([titleOf(fileToken, fileType), textOf(fileToken, fileType)]);
      return {
        follows,
        event: SPEC_EVENT[type],
        title: () => title,
        url: () => `${deps.docsBaseUrl}/${docPath(fileType)}/${fileToken}`,
        before: () => '',
        after: clip(after ?? null),
        time,
      };
    }
    const follows = await repo.followsOfToken(fileToken);
    if (!follows.length) return 'document not followed';
    // A wiki page renamed since it was followed shows under its name of today.
    const first = follows[0];
    const renamed = first?.node_token ? await titleOf(fileToken, first.obj_type) : null;
    const title = renamed && renamed !== fileToken ? renamed : null;
    const common = {
      follows,
      title: (f: Follow) => title ?? f.title,
      url: (f: Follow) => f.url,
      time,
      retitle: title ?? undefined,
    };
    if (type === 'drive.file.edit_v1') {
      // Lark also sends edit_v1 for bitable changes; the record and field events describe those.
      if (event.file_type === 'bitable') return 'bitable edits arrive as record and field events';
      const read = await textOf(fileToken, String(event.file_type ?? follows[0]?.obj_type ?? ''));
      const after = clip(read ?? null);
      // Text Lark would not give keeps the last one seen as the "before" of the next edit.
      return {
        ...common,
        event: SPEC_EVENT[type],
        before: (f) => f.content,
        after,
        seen: read === undefined ? undefined : after,
      };
    }
    const text = type === 'drive.file.bitable_record_changed_v1' ? recordChangeText(event) : fieldChangeText(event);
    return {
      ...common,
      event: SPEC_EVENT[type],
      before: () => clip(text.before),
      after: clip(text.after),
      detail: text.summary,
    };
  }

  function itemOf(eventId: string, change: Change, follow: Follow, author: string): Item {
    const title = change.title(follow);
    const before = change.before(follow);
    const label = WIKI_EVENT_LABELS[change.event] ?? change.event;
    return {
      id: `lark:${eventId}`,
      time: change.time,
      author,
      // `docs:` makes the list show the 文档 type (SPEC §3 commit message types) before the subject.
      message: `docs: ${label}：${title}${change.detail ? `（${change.detail}）` : ''}`,
      url: change.url(follow),
      metadata: {
        event: change.event,
        spaceName: follow.space_name,
        objTitle: title.slice(0, 500),
        url: change.url(follow),
        // A diff is offered only when both sides were read (sheets and slides have no text to compare).
        changeVisible: before !== null && change.after !== null,
        beforeContent: before,
        afterContent: change.after,
      },
    };
  }

  /** The events of one document, one after another in this process (each edit's "before" is the one ahead of it). */
  const queues = new Map<string, Promise<unknown>>();
  function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const next = (queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    queues.set(key, next);
    const forget = () => {
      if (queues.get(key) === next) queues.delete(key);
    };
    next.then(forget, forget);
    return next;
  }

  async function handle(incoming: IncomingEvent): Promise<EventOutcome> {
    if (await repo.hasEvent(incoming.eventId)) return { status: 'duplicate' };
    // A bug table of the task sync: its app is pulled now (whether or not a wiki workflow follows it too).
    if (BITABLE_EVENTS.has(incoming.eventType) && typeof incoming.event.file_token === 'string')
      await deps.onBaseChanged?.(incoming.event.file_token, incoming.eventId);
    const now = clock.now();
    const time = incoming.createTime > 0 ? incoming.createTime : now;
    const change =
      incoming.eventType in SPEC_EVENT
        ? await changeOf(incoming.eventType as LarkEventType, incoming.event, time)
        : 'event type not handled';
    if (typeof change === 'string') {
      // Recorded all the same, so Lark's retries of it are answered at once.
      const fresh = await repo.takeEvent(incoming.eventId, incoming.eventType, 0, now);
      return fresh ? { status: 'ignored', reason: change } : { status: 'duplicate' };
    }
    const author = await authorOf(incoming.event);
    const workflows = new Map<number, WorkflowRecord>();
    for (const follow of change.follows) {
      const workflow = await deps.workflows.findById(follow.workflow_id);
      if (workflow) workflows.set(workflow.id, workflow);
    }
    const result = await repo
      .transaction(async (trx) => {
        const inTrx = createLarkDocsRepository(trx);
        const ingest = deps.ingestOn(trx);
        let created = 0;
        for (const follow of change.follows) {
          const workflow = workflows.get(follow.workflow_id);
          if (!workflow) continue;
          created += await ingest.ingestCustom(workflow, [itemOf(incoming.eventId, change, follow, author)]);
          if (change.seen !== undefined || change.retitle !== undefined) {
            await inTrx.updateSeen(
              follow.id,
              {
                ...(change.seen !== undefined ? { content: change.seen } : {}),
                ...(change.retitle ? { title: change.retitle.slice(0, 500) } : {}),
              },
              now,
            );
          }
        }
        // Taken last: a concurrent redelivery that got here first rolls this one back whole.
        if (!(await inTrx.takeEvent(incoming.eventId, incoming.eventType, created, now))) throw new DuplicateEvent();
        return created;
      })
      .catch((error: unknown) => {
        if (error instanceof DuplicateEvent) return null;
        throw error;
      });
    if (result === null) return { status: 'duplicate' };
    if (result > 0) await deps.onNewItems?.([...workflows.values()]);
    return { status: 'stored', created: result };
  }

  return {
    /** Handles one verified event (the job of sync/lark-event.job.ts); the same event id twice changes nothing. */
    handle(incoming: IncomingEvent): Promise<EventOutcome> {
      return inTurn(String(incoming.event.file_token ?? incoming.eventId), () => handle(incoming));
    },
  };
}
export type LarkEventsService = ReturnType<typeof createLarkEventsService>;

class DuplicateEvent extends Error {}
