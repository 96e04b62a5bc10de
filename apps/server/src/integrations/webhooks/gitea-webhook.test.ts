import { describe, expect, it } from 'vitest';
import { parseGiteaWebhook } from './gitea-webhook.ts';
import { detectWebhookProvider, parsePushWebhook, webhookDeliveryKey } from './index.ts';
import {
  giteaDeletePayload,
  giteaPushPayload,
  gitlabPushPayload,
  hmacHex,
  prettyJson,
  request,
  SHA,
  ZEROS,
} from './testing/webhook-payloads.ts';
import { WebhookError, type WebhookErrorReason, type WebhookRequest } from './webhook-types.ts';

const SECRET = 's3cret';
const DELIVERY = '0c3f2b7e-5a61-4f0e-9a55-1d2e3f4a5b6c';

/** Every header Gitea sets on a delivery, GitHub-compatible ones included. */
function gitea(body: string, event = 'push', headers: Record<string, string> = {}): WebhookRequest {
  const hex = hmacHex(SECRET, body);
  return request(body, {
    'content-type': 'application/json',
    'x-gitea-event': event,
    'x-gitea-event-type': event,
    'x-gogs-event': event,
    'x-github-event': event,
    'x-gitea-delivery': DELIVERY,
    'x-gogs-delivery': DELIVERY,
    'x-github-delivery': DELIVERY,
    'x-gitea-signature': hex,
    'x-gogs-signature': hex,
    'x-hub-signature-256': `sha256=${hex}`,
    ...headers,
  });
}

function failure(req: WebhookRequest): WebhookErrorReason {
  try {
    parseGiteaWebhook(req, { secret: SECRET });
  } catch (error) {
    if (error instanceof WebhookError) return error.reason;
    throw error;
  }
  throw new Error('expected a WebhookError');
}

describe('parseGiteaWebhook', () => {
  it("matches the contract's HMAC example", () => {
    const body = '{"ref":"refs/heads/main","before":"0000000000000000000000000000000000000000"}';
    expect(hmacHex(SECRET, body)).toBe('e5c51fae29079de4b4c41bc5adaf9ddb9a48324fb754d18d8d087b26a895d6b0');
  });

  it('reads a pretty-printed push and returns its newest-first commits oldest first', () => {
    const event = parseGiteaWebhook(gitea(prettyJson(giteaPushPayload())), { secret: SECRET });
    expect(event).toMatchObject({
      provider: 'gitea',
      kind: 'push',
      deliveryId: DELIVERY,
      branch: 'main',
      truncated: false,
      totalCommits: 2,
    });
    expect(event.commits.map((commit) => [commit.commitId, commit.message])).toEqual([
      [SHA.first, 'First change'],
      [SHA.second, 'Second change'],
    ]);
    expect(event.repository?.fullName).toBe('mobile/ios-app');
  });

  it('flags a list cut at FEED_MAX_COMMIT_NUM', () => {
    expect(
      parseGiteaWebhook(gitea(prettyJson(giteaPushPayload({ total_commits: 7 }))), { secret: SECRET }).truncated,
    ).toBe(true);
  });

  it('accepts the Forgejo, Gogs and GitHub-style signature headers', () => {
    const body = prettyJson(giteaPushPayload());
    const hex = hmacHex(SECRET, body);
    const bare = { 'content-type': 'application/json', 'x-forgejo-event': 'push', 'x-forgejo-delivery': 'f-1' };
    expect(
      parseGiteaWebhook(request(body, { ...bare, 'x-forgejo-signature': hex }), { secret: SECRET }).deliveryId,
    ).toBe('f-1');
    expect(
      parseGiteaWebhook(request(body, { 'x-gogs-event': 'push', 'x-gogs-signature': hex }), { secret: SECRET }).commits,
    ).toHaveLength(2);
    expect(
      parseGiteaWebhook(request(body, { 'x-gitea-event': 'push', 'x-hub-signature-256': `sha256=${hex}` }), {
        secret: SECRET,
      }).kind,
    ).toBe('push');
  });

  it('refuses a wrong signature, and an empty one when a secret is configured', () => {
    const body = prettyJson(giteaPushPayload());
    expect(failure(gitea(body, 'push', { 'x-gitea-signature': hmacHex('nope', body), 'x-gogs-signature': '' }))).toBe(
      'bad_signature',
    );
    expect(failure(request(body, { 'x-gitea-event': 'push', 'x-gitea-signature': '' }))).toBe('missing_signature');
    expect(
      failure(
        request(body.replace('Second change', 'Third change'), {
          'x-gitea-event': 'push',
          'x-gitea-signature': hmacHex(SECRET, body),
        }),
      ),
    ).toBe('bad_signature');
  });

  it('maps delete events to a deleted branch or tag, and tag pushes to tags', () => {
    const branch = parseGiteaWebhook(gitea(prettyJson(giteaDeletePayload('feature/x', 'branch')), 'delete'), {
      secret: SECRET,
    });
    expect(branch).toMatchObject({
      kind: 'push',
      deleted: true,
      branch: 'feature/x',
      ref: 'refs/heads/feature/x',
      commits: [],
    });
    const tag = parseGiteaWebhook(gitea(prettyJson(giteaDeletePayload('v1.0', 'tag')), 'delete'), { secret: SECRET });
    expect(tag).toMatchObject({ kind: 'tag', deleted: true, tag: { name: 'v1.0', commitId: null, message: null } });
    const tagPush = giteaPushPayload({ ref: 'refs/tags/v1.1', before: ZEROS, commits: [], total_commits: 0 });
    expect(parseGiteaWebhook(gitea(prettyJson(tagPush)), { secret: SECRET })).toMatchObject({
      kind: 'tag',
      created: true,
      tag: { name: 'v1.1', commitId: SHA.second },
    });
    expect(parseGiteaWebhook(gitea('{"ref":"v1"}', 'create'), { secret: SECRET }).kind).toBe('ignored');
  });
});

describe('webhook dispatch and replay keys', () => {
  it('detects the host from its headers, Gitea before its GitHub-compatible headers', () => {
    expect(detectWebhookProvider(gitea('{}').headers)).toBe('gitea');
    expect(detectWebhookProvider({ 'X-Gitlab-Event': 'Push Hook' })).toBe('gitlab');
    expect(detectWebhookProvider({ 'x-github-event': 'push' })).toBe('github');
    expect(detectWebhookProvider({ 'content-type': 'application/json' })).toBeNull();
  });

  it('parses through the provider switch', () => {
    const body = JSON.stringify(gitlabPushPayload());
    const event = parsePushWebhook('gitlab', request(body, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 't' }), {
      secret: 't',
    });
    expect(event.commits).toHaveLength(2);
    expect(parsePushWebhook('gitea', gitea(prettyJson(giteaPushPayload())), { secret: SECRET }).provider).toBe('gitea');
  });

  it('keys a delivery by its id, or by the hash of its raw body when the host sends none', () => {
    const body = JSON.stringify(gitlabPushPayload());
    expect(webhookDeliveryKey({ deliveryId: 'abc' }, body)).toBe('abc');
    const key = webhookDeliveryKey({ deliveryId: null }, body);
    expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(webhookDeliveryKey({ deliveryId: null }, Buffer.from(body))).toBe(key);
    expect(webhookDeliveryKey({ deliveryId: null }, `${body} `)).not.toBe(key);
  });
});
