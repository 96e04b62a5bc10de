import { describe, expect, it } from 'vitest';
import { parseGithubWebhook } from './github-webhook.ts';
import { githubPingPayload, githubPushPayload, hmacHex, request, SHA, ZEROS } from './testing/webhook-payloads.ts';
import { WebhookError, type WebhookErrorReason, type WebhookRequest } from './webhook-types.ts';
import { hmacSha256Hex } from './webhook-verify.ts';

const SECRET = "It's a Secret to Everybody";
const DELIVERY = '5d8a7c20-0b7e-11ef-9b1a-2f6d1c0e4a11';

function github(body: string, event = 'push', headers: Record<string, string> = {}): WebhookRequest {
  return request(body, {
    'Content-Type': 'application/json',
    'X-GitHub-Event': event,
    'X-GitHub-Delivery': DELIVERY,
    'X-Hub-Signature-256': `sha256=${hmacHex(SECRET, body)}`,
    'User-Agent': 'GitHub-Hookshot/7d2c1f0',
    ...headers,
  });
}

function failure(req: WebhookRequest): WebhookErrorReason {
  try {
    parseGithubWebhook(req, { secret: SECRET });
  } catch (error) {
    if (error instanceof WebhookError) return error.reason;
    throw error;
  }
  throw new Error('expected a WebhookError');
}

describe('parseGithubWebhook', () => {
  it("matches GitHub's documented test vector", () => {
    expect(hmacSha256Hex(SECRET, 'Hello, World!')).toBe(
      '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('reads a signed push', () => {
    const event = parseGithubWebhook(github(JSON.stringify(githubPushPayload())), { secret: SECRET });
    expect(event).toMatchObject({
      provider: 'github',
      kind: 'push',
      deliveryId: DELIVERY,
      branch: 'main',
      forced: false,
      deleted: false,
      truncated: false,
      totalCommits: null,
      repository: {
        fullName: 'acme/ios-app',
        webUrl: 'https://github.com/acme/ios-app',
        cloneUrls: ['https://github.com/acme/ios-app.git', 'git@github.com:acme/ios-app.git'],
      },
    });
    expect(event.commits.map((commit) => [commit.commitId, commit.message, commit.authorEmail])).toEqual([
      [SHA.first, 'Add device sync\n\nCloses #12', 'ola@acme.test'],
      [SHA.second, '同步修复', 'ola@acme.test'],
    ]);
    expect(event.commits[0]).toMatchObject({
      branch: 'main',
      authorName: 'Ola Berg',
      commitTime: Date.parse('2024-05-02T09:10:00Z'),
      url: `https://github.com/acme/ios-app/commit/${SHA.first}`,
      files: { added: ['Sources/Sync.swift'], modified: ['Package.swift'], removed: [] },
    });
  });

  it('verifies over the raw bytes, not over re-serialised JSON', () => {
    const body = JSON.stringify(githubPushPayload());
    const pretty = JSON.stringify(JSON.parse(body) as unknown, null, 2);
    expect(failure(github(pretty, 'push', { 'X-Hub-Signature-256': `sha256=${hmacHex(SECRET, body)}` }))).toBe(
      'bad_signature',
    );
    expect(
      failure(
        github(body.replace('同步修复', '同步修改'), 'push', {
          'X-Hub-Signature-256': `sha256=${hmacHex(SECRET, body)}`,
        }),
      ),
    ).toBe('bad_signature');
  });

  it('accepts the form content type, signed over the form body', () => {
    const form = `payload=${encodeURIComponent(JSON.stringify(githubPushPayload()))}`;
    const event = parseGithubWebhook(github(form, 'push', { 'Content-Type': 'application/x-www-form-urlencoded' }), {
      secret: SECRET,
    });
    expect(event.commits).toHaveLength(2);
    expect(failure(github('other=1', 'push', { 'Content-Type': 'application/x-www-form-urlencoded' }))).toBe(
      'bad_payload',
    );
  });

  it('refuses missing, legacy-only, malformed and wrong signatures', () => {
    const body = JSON.stringify(githubPushPayload());
    expect(failure(request(body, { 'x-github-event': 'push' }))).toBe('missing_signature');
    const sha1Only = github(body, 'push', {
      'X-Hub-Signature-256': '',
      'X-Hub-Signature': 'sha1=0123456789abcdef0123456789abcdef01234567',
    });
    expect(failure(sha1Only)).toBe('missing_signature');
    expect(failure(github(body, 'push', { 'X-Hub-Signature-256': 'sha256=xyz' }))).toBe('bad_signature');
    expect(failure(github(body, 'push', { 'X-Hub-Signature-256': `sha256=${hmacHex('other secret', body)}` }))).toBe(
      'bad_signature',
    );
    expect(failure(github(body, 'push', { 'X-Hub-Signature-256': hmacHex(SECRET, body) }))).toBe('missing_signature');
  });

  it('answers a ping', () => {
    const event = parseGithubWebhook(github(JSON.stringify(githubPingPayload()), 'ping'), { secret: SECRET });
    expect(event).toMatchObject({
      kind: 'ping',
      deliveryId: DELIVERY,
      commits: [],
      repository: { fullName: 'acme/ios-app' },
    });
  });

  it('reads force-pushes, deletions and tags', () => {
    const forced = parseGithubWebhook(github(JSON.stringify(githubPushPayload({ forced: true }))), { secret: SECRET });
    expect(forced.forced).toBe(true);
    const deleted = parseGithubWebhook(
      github(JSON.stringify(githubPushPayload({ deleted: true, after: ZEROS, commits: [], head_commit: null }))),
      { secret: SECRET },
    );
    expect(deleted).toMatchObject({ kind: 'push', deleted: true, commits: [], branch: 'main' });
    const tag = parseGithubWebhook(
      github(JSON.stringify(githubPushPayload({ ref: 'refs/tags/v2.4.0', before: ZEROS, created: true, commits: [] }))),
      { secret: SECRET },
    );
    expect(tag).toMatchObject({
      kind: 'tag',
      created: true,
      branch: null,
      commits: [],
      tag: { name: 'v2.4.0', commitId: SHA.second, message: null },
    });
  });

  it('flags a push at the 2048-commit cap as truncated', () => {
    const commit = (githubPushPayload().commits as Record<string, unknown>[])[0];
    const commits = Array.from({ length: 2048 }, () => commit);
    expect(
      parseGithubWebhook(github(JSON.stringify(githubPushPayload({ commits }))), { secret: SECRET }).truncated,
    ).toBe(true);
  });

  it('ignores other events and refuses a delivery without an event name', () => {
    const body = JSON.stringify({ ref: 'v1', ref_type: 'tag' });
    expect(parseGithubWebhook(github(body, 'create'), { secret: SECRET })).toMatchObject({
      kind: 'ignored',
      event: 'create',
    });
    expect(failure(github(body, ''))).toBe('unsupported_event');
  });
});
