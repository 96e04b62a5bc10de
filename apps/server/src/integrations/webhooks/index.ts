import { parseGiteaWebhook } from './gitea-webhook.ts';
import { parseGithubWebhook } from './github-webhook.ts';
import { parseGitlabWebhook } from './gitlab-webhook.ts';
import {
  firstHeader,
  headerValue,
  type WebhookEvent,
  type WebhookOptions,
  type WebhookProvider,
  type WebhookRequest,
} from './webhook-types.ts';

export { parseGiteaWebhook } from './gitea-webhook.ts';
export { parseGithubWebhook } from './github-webhook.ts';
export { parseGitlabWebhook } from './gitlab-webhook.ts';
export { hmacSha256Hex, webhookDeliveryKey } from './webhook-verify.ts';
export * from './webhook-types.ts';

/**
 * Which host sent a delivery, from its headers. Gitea also sends X-GitHub-* headers, so its own headers are
 * checked first. Null when nothing matches: configure the provider on the hook instead of guessing.
 */
export function detectWebhookProvider(headers: WebhookRequest['headers']): WebhookProvider | null {
  if (firstHeader(headers, ['x-gitea-event', 'x-forgejo-event', 'x-gogs-event']) !== null) return 'gitea';
  if (headerValue(headers, 'x-gitlab-event') !== null) return 'gitlab';
  if (headerValue(headers, 'x-github-event') !== null) return 'github';
  return null;
}

/** Verifies and parses a delivery from the given host; throws WebhookError. */
export function parsePushWebhook(
  provider: WebhookProvider,
  request: WebhookRequest,
  options: WebhookOptions,
): WebhookEvent {
  switch (provider) {
    case 'gitlab':
      return parseGitlabWebhook(request, options);
    case 'github':
      return parseGithubWebhook(request, options);
    case 'gitea':
      return parseGiteaWebhook(request, options);
  }
}
