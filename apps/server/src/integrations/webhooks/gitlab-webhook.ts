import { z } from 'zod';
import { verifySharedToken } from './webhook-verify.ts';
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
  headerValue,
  WebhookError,
  type WebhookEvent,
  type WebhookOptions,
  type WebhookRequest,
} from './webhook-types.ts';

const pushSchema = z.object({
  object_kind: z.string().optional(),
  ref: z.string().min(1),
  before: shaSchema,
  after: shaSchema,
  checkout_sha: shaSchema.nullish(),
  message: z.string().nullish(),
  commits: z.array(payloadCommitSchema).default([]),
  total_commits_count: z.number().int().nonnegative().nullish(),
  project: z
    .object({
      path_with_namespace: z.string(),
      web_url: z.string().nullish(),
      git_http_url: z.string().nullish(),
      git_ssh_url: z.string().nullish(),
    })
    .nullish(),
});

const PUSH_EVENTS = new Set(['Push Hook', 'Tag Push Hook']);

/**
 * Verifies and reads a GitLab delivery. The secret token is compared in constant time before the body is
 * parsed. `Push Hook` and `Tag Push Hook` are read (kind by the ref, as GitLab itself decides); every other
 * event is `ignored` so the hook still gets its 2xx (GitLab disables hooks that keep failing).
 */
export function parseGitlabWebhook(request: WebhookRequest, options: WebhookOptions): WebhookEvent {
  if (options.secret !== null) verifySharedToken(options.secret, headerValue(request.headers, 'x-gitlab-token'));
  const event = headerValue(request.headers, 'x-gitlab-event');
  if (event === null) throw new WebhookError('unsupported_event', 'no X-Gitlab-Event header');
  const deliveryId = firstHeader(request.headers, ['idempotency-key', 'x-gitlab-event-uuid']);
  if (!PUSH_EVENTS.has(event)) return emptyEvent('gitlab', 'ignored', event, deliveryId);
  const body = parsePayload(pushSchema, readJsonBody(request));
  const result = refPushEvent('gitlab', event, deliveryId, {
    ref: body.ref,
    before: body.before,
    after: body.after,
    commits: body.commits,
    newestFirst: false,
    totalCommits: body.total_commits_count ?? null,
    capped: false,
    forced: false,
    tagCommitId: body.checkout_sha ?? null,
    tagMessage: body.message ?? null,
  });
  const project = body.project;
  if (project) {
    result.repository = {
      fullName: project.path_with_namespace,
      webUrl: project.web_url ?? null,
      cloneUrls: [project.git_http_url, project.git_ssh_url].filter(
        (url): url is string => typeof url === 'string' && url !== '',
      ),
    };
  }
  return result;
}
