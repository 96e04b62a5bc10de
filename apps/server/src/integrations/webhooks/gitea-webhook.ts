import { z } from 'zod';
import { shortBranchName } from '../source-commit.ts';
import { repositorySchema, toRepository } from './github-webhook.ts';
import { verifyHmacHex, stripSha256Prefix } from './webhook-verify.ts';
import {
  emptyEvent,
  parsePayload,
  payloadCommitSchema,
  readJsonBody,
  refPushEvent,
  shaSchema,
} from './webhook-payload.ts';
import {
  firstHeader,
  WebhookError,
  type WebhookEvent,
  type WebhookOptions,
  type WebhookRequest,
} from './webhook-types.ts';

const EVENT_HEADERS = ['x-gitea-event', 'x-forgejo-event', 'x-gogs-event', 'x-github-event'];
const DELIVERY_HEADERS = ['x-gitea-delivery', 'x-forgejo-delivery', 'x-gogs-delivery', 'x-github-delivery'];
const SIGNATURE_HEADERS = ['x-gitea-signature', 'x-forgejo-signature', 'x-gogs-signature'];

const pushSchema = z.object({
  ref: z.string().min(1),
  before: shaSchema,
  after: shaSchema,
  commits: z.array(payloadCommitSchema).nullish(),
  total_commits: z.number().int().nonnegative().nullish(),
  head_commit: z.object({ id: shaSchema }).nullish(),
  repository: repositorySchema,
});

const deleteSchema = z.object({ ref: z.string().min(1), ref_type: z.string(), repository: repositorySchema });

/** The bare hex signature of Gitea/Forgejo/Gogs, or GitHub's `sha256=` form that Gitea also sends. */
function signatureOf(request: WebhookRequest): string | null {
  return (
    firstHeader(request.headers, SIGNATURE_HEADERS) ??
    stripSha256Prefix(firstHeader(request.headers, ['x-hub-signature-256']))
  );
}

/**
 * Verifies and reads a Gitea, Forgejo or Gogs delivery (HMAC-SHA256 hex of the raw body, constant-time).
 * `push` commits arrive newest first and are returned oldest first. Gitea reports a branch deletion only as a
 * `delete` event, mapped here to a deleted push (or a deleted tag); other events are `ignored`.
 */
export function parseGiteaWebhook(request: WebhookRequest, options: WebhookOptions): WebhookEvent {
  if (options.secret !== null) verifyHmacHex(options.secret, request.rawBody, signatureOf(request));
  const event = firstHeader(request.headers, EVENT_HEADERS);
  if (event === null) throw new WebhookError('unsupported_event', 'no X-Gitea-Event header');
  const deliveryId = firstHeader(request.headers, DELIVERY_HEADERS);
  if (event === 'delete') {
    const body = parsePayload(deleteSchema, readJsonBody(request));
    if (body.ref_type !== 'branch' && body.ref_type !== 'tag') return emptyEvent('gitea', 'ignored', event, deliveryId);
    const isTag = body.ref_type === 'tag';
    const name = isTag ? body.ref.replace(/^refs\/tags\//, '') : shortBranchName(body.ref);
    const deleted = emptyEvent('gitea', isTag ? 'tag' : 'push', event, deliveryId);
    deleted.ref = isTag ? `refs/tags/${name}` : `refs/heads/${name}`;
    deleted.branch = isTag ? null : name;
    deleted.tag = isTag ? { name, commitId: null, message: null } : null;
    deleted.deleted = true;
    deleted.repository = toRepository(body.repository);
    return deleted;
  }
  if (event !== 'push') return emptyEvent('gitea', 'ignored', event, deliveryId);
  const body = parsePayload(pushSchema, readJsonBody(request));
  const commits = body.commits ?? [];
  const result = refPushEvent('gitea', event, deliveryId, {
    ref: body.ref,
    before: body.before,
    after: body.after,
    commits,
    newestFirst: true,
    totalCommits: body.total_commits ?? null,
    capped: false,
    forced: false,
    tagCommitId: body.head_commit?.id ?? null,
    tagMessage: null,
  });
  result.repository = toRepository(body.repository);
  return result;
}
