import { z } from 'zod';
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
  headerValue,
  WebhookError,
  type WebhookEvent,
  type WebhookOptions,
  type WebhookRepository,
  type WebhookRequest,
} from './webhook-types.ts';

/** GitHub's documented cap on `commits` in a push delivery. */
export const GITHUB_COMMIT_CAP = 2048;

export const repositorySchema = z
  .object({
    full_name: z.string(),
    html_url: z.string().nullish(),
    clone_url: z.string().nullish(),
    ssh_url: z.string().nullish(),
  })
  .nullish();

const pushSchema = z.object({
  ref: z.string().min(1),
  before: shaSchema,
  after: shaSchema,
  forced: z.boolean().default(false),
  commits: z.array(payloadCommitSchema).default([]),
  head_commit: z.object({ id: shaSchema }).nullish(),
  repository: repositorySchema,
});

const pingSchema = z.object({
  zen: z.string().optional(),
  hook_id: z.number().optional(),
  repository: repositorySchema,
});

export function toRepository(repository: z.infer<typeof repositorySchema>): WebhookRepository | null {
  if (!repository) return null;
  return {
    fullName: repository.full_name,
    webUrl: repository.html_url ?? null,
    cloneUrls: [repository.clone_url, repository.ssh_url].filter(
      (url): url is string => typeof url === 'string' && url !== '',
    ),
  };
}

/**
 * Verifies and reads a GitHub delivery: `X-Hub-Signature-256` (HMAC-SHA256 of the raw body, constant-time)
 * first, then `push` (branch or tag by the ref) and `ping`; other events are `ignored`. JSON and form
 * (`payload=`) bodies are both accepted.
 */
export function parseGithubWebhook(request: WebhookRequest, options: WebhookOptions): WebhookEvent {
  if (options.secret !== null) {
    verifyHmacHex(
      options.secret,
      request.rawBody,
      stripSha256Prefix(headerValue(request.headers, 'x-hub-signature-256')),
    );
  }
  const event = headerValue(request.headers, 'x-github-event');
  if (event === null) throw new WebhookError('unsupported_event', 'no X-GitHub-Event header');
  const deliveryId = headerValue(request.headers, 'x-github-delivery');
  if (event === 'ping') {
    const ping = emptyEvent('github', 'ping', event, deliveryId);
    ping.repository = toRepository(parsePayload(pingSchema, readJsonBody(request)).repository);
    return ping;
  }
  if (event !== 'push') return emptyEvent('github', 'ignored', event, deliveryId);
  const body = parsePayload(pushSchema, readJsonBody(request));
  const result = refPushEvent('github', event, deliveryId, {
    ref: body.ref,
    before: body.before,
    after: body.after,
    commits: body.commits,
    newestFirst: false,
    totalCommits: null,
    capped: body.commits.length >= GITHUB_COMMIT_CAP,
    forced: body.forced,
    tagCommitId: body.head_commit?.id ?? null,
    tagMessage: null,
  });
  result.repository = toRepository(body.repository);
  return result;
}
