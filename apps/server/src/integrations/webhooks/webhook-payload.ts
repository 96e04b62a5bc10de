import { z } from 'zod';
import { shortBranchName, trimMessageEnd, type SourceCommit } from '../source-commit.ts';
import {
  headerValue,
  WebhookError,
  type WebhookEvent,
  type WebhookKind,
  type WebhookProvider,
  type WebhookRequest,
} from './webhook-types.ts';

export const ZERO_SHA = /^0+$/;
export const shaSchema = z.string().regex(/^[0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?$/);
const fileList = z.array(z.string()).nullish();

/** The commit object GitLab, GitHub and Gitea share (each adds fields we do not need). */
export const payloadCommitSchema = z.object({
  id: shaSchema,
  message: z.string(),
  timestamp: z.string(),
  url: z.string().nullish(),
  author: z.object({ name: z.string(), email: z.string().nullish() }),
  added: fileList,
  modified: fileList,
  removed: fileList,
});
export type PayloadCommit = z.infer<typeof payloadCommitSchema>;

/** JSON body, or a form body whose `payload` field holds the JSON (GitHub and Gitea form content type). */
export function readJsonBody(request: WebhookRequest): unknown {
  const text = typeof request.rawBody === 'string' ? request.rawBody : request.rawBody.toString('utf8');
  const contentType = headerValue(request.headers, 'content-type') ?? '';
  const json = contentType.toLowerCase().includes('application/x-www-form-urlencoded')
    ? new URLSearchParams(text).get('payload')
    : text;
  if (json === null) throw new WebhookError('bad_payload', 'form body without payload field');
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    throw new WebhookError('bad_payload', `invalid JSON: ${String(error)}`);
  }
}

/** Validates a parsed body against a schema; any mismatch is bad_payload with the failing paths. */
export function parsePayload<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const where = result.error.issues
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new WebhookError('bad_payload', where);
  }
  return result.data;
}

/** Hosts hide private addresses ('' or GitLab's "[REDACTED]"). */
function publicEmail(email: string | null | undefined): string | null {
  const value = email?.trim() ?? '';
  return value === '' || value === '[REDACTED]' ? null : value;
}

export function toSourceCommit(commit: PayloadCommit, branch: string | null): SourceCommit {
  const commitTime = Date.parse(commit.timestamp);
  if (Number.isNaN(commitTime)) throw new WebhookError('bad_payload', `bad timestamp ${commit.timestamp}`);
  const hasFiles = [commit.added, commit.modified, commit.removed].some((list) => list !== null && list !== undefined);
  return {
    commitId: commit.id.toLowerCase(),
    branch,
    authorName: commit.author.name,
    authorEmail: publicEmail(commit.author.email),
    commitTime,
    message: trimMessageEnd(commit.message),
    tags: [],
    tagSummary: [],
    url: commit.url || null,
    files: hasFiles
      ? { added: commit.added ?? [], modified: commit.modified ?? [], removed: commit.removed ?? [] }
      : null,
  };
}

export interface RefPush {
  ref: string;
  before: string;
  after: string;
  /** Commits in the host's order. */
  commits: PayloadCommit[];
  newestFirst: boolean;
  totalCommits: number | null;
  /** The list is known to be capped even without a count (GitHub at 2048). */
  capped: boolean;
  forced: boolean;
  tagCommitId: string | null;
  tagMessage: string | null;
}

/** The common normalisation of a ref update: branch or tag, created/deleted, commits oldest → newest. */
export function refPushEvent(
  provider: WebhookProvider,
  event: string,
  deliveryId: string | null,
  push: RefPush,
): WebhookEvent {
  const deleted = ZERO_SHA.test(push.after);
  const isTag = push.ref.startsWith('refs/tags/');
  const branch = isTag ? null : shortBranchName(push.ref);
  const ordered = push.newestFirst ? [...push.commits].reverse() : push.commits;
  const commits = deleted || isTag ? [] : ordered.map((commit) => toSourceCommit(commit, branch));
  const total = push.totalCommits;
  return {
    provider,
    kind: isTag ? 'tag' : 'push',
    event,
    deliveryId,
    ref: push.ref,
    branch,
    tag: isTag
      ? {
          name: push.ref.slice('refs/tags/'.length),
          commitId: deleted ? null : (push.tagCommitId ?? push.after),
          message: push.tagMessage,
        }
      : null,
    before: push.before,
    after: push.after,
    commits,
    deleted,
    created: ZERO_SHA.test(push.before),
    forced: push.forced,
    truncated: !deleted && !isTag && ((total !== null && total > push.commits.length) || push.capped),
    totalCommits: total,
    repository: null,
  };
}

/** An event without commits (ping, ignored, a Gitea delete), filled in by the caller where needed. */
export function emptyEvent(
  provider: WebhookProvider,
  kind: WebhookKind,
  event: string,
  deliveryId: string | null,
): WebhookEvent {
  return {
    provider,
    kind,
    event,
    deliveryId,
    ref: null,
    branch: null,
    tag: null,
    before: null,
    after: null,
    commits: [],
    deleted: false,
    created: false,
    forced: false,
    truncated: false,
    totalCommits: null,
    repository: null,
  };
}
