import { describe, expect, it } from 'vitest';
import { parseGitlabWebhook } from './gitlab-webhook.ts';
import { gitlabPushPayload, request, SHA, ZEROS } from './testing/webhook-payloads.ts';
import { WebhookError, type WebhookErrorReason, type WebhookRequest } from './webhook-types.ts';

const SECRET = 'tok-ci-7f3a';

function gitlab(payload: unknown, headers: Record<string, string> = {}, event = 'Push Hook'): WebhookRequest {
  return request(JSON.stringify(payload), {
    'content-type': 'application/json',
    'x-gitlab-event': event,
    'x-gitlab-token': SECRET,
    ...headers,
  });
}

function failure(req: WebhookRequest, secret: string | null = SECRET): WebhookErrorReason {
  try {
    parseGitlabWebhook(req, { secret });
  } catch (error) {
    if (error instanceof WebhookError) return error.reason;
    throw error;
  }
  throw new Error('expected a WebhookError');
}

describe('parseGitlabWebhook', () => {
  it('reads a push: commits oldest first, redacted email dropped, repository and delivery id', () => {
    const event = parseGitlabWebhook(
      gitlab(gitlabPushPayload(), { 'X-Gitlab-Event-UUID': 'e-1', 'Idempotency-Key': 'idem-1' }),
      { secret: SECRET },
    );
    expect(event).toMatchObject({
      provider: 'gitlab',
      kind: 'push',
      event: 'Push Hook',
      deliveryId: 'idem-1',
      ref: 'refs/heads/release/2.4',
      branch: 'release/2.4',
      tag: null,
      before: SHA.before,
      after: SHA.second,
      deleted: false,
      created: false,
      forced: false,
      truncated: false,
      totalCommits: 2,
      repository: {
        fullName: 'mobile/ios-app',
        webUrl: 'https://git.corp.test/mobile/ios-app',
        cloneUrls: ['https://git.corp.test/mobile/ios-app.git', 'git@git.corp.test:mobile/ios-app.git'],
      },
    });
    expect(event.commits).toEqual([
      {
        commitId: SHA.first,
        branch: 'release/2.4',
        authorName: 'Mira Quell',
        authorEmail: null,
        commitTime: Date.parse('2024-05-02T07:12:44Z'),
        message: 'Bump build number',
        tags: [],
        tagSummary: [],
        url: `https://git.corp.test/mobile/ios-app/-/commit/${SHA.first}`,
        files: { added: [], modified: ['Info.plist'], removed: [] },
      },
      {
        commitId: SHA.second,
        branch: 'release/2.4',
        authorName: 'Ola Berg',
        authorEmail: 'ola@corp.test',
        commitTime: Date.parse('2024-05-02T07:20:01Z'),
        message: '修复启动崩溃\n\nRefs #88',
        tags: [],
        tagSummary: [],
        url: `https://git.corp.test/mobile/ios-app/-/commit/${SHA.second}`,
        files: { added: ['Sources/Guard.swift'], modified: ['Sources/App.swift'], removed: [] },
      },
    ]);
  });

  it('uses X-Gitlab-Event-UUID when there is no Idempotency-Key, and null when neither is sent', () => {
    expect(
      parseGitlabWebhook(gitlab(gitlabPushPayload(), { 'x-gitlab-event-uuid': 'e-2' }), { secret: SECRET }).deliveryId,
    ).toBe('e-2');
    expect(parseGitlabWebhook(gitlab(gitlabPushPayload()), { secret: SECRET }).deliveryId).toBeNull();
  });

  it('flags a payload capped at the newest 20 commits', () => {
    const event = parseGitlabWebhook(gitlab(gitlabPushPayload({ total_commits_count: 25 })), { secret: SECRET });
    expect(event.truncated).toBe(true);
    expect(event.totalCommits).toBe(25);
  });

  it('reads a tag push with its annotation and tagged commit', () => {
    const payload = gitlabPushPayload({
      object_kind: 'tag_push',
      event_name: 'tag_push',
      ref: 'refs/tags/v2.4.0',
      before: ZEROS,
      message: 'Release 2.4.0',
      commits: [],
      total_commits_count: 0,
    });
    const event = parseGitlabWebhook(gitlab(payload, {}, 'Tag Push Hook'), { secret: SECRET });
    expect(event).toMatchObject({
      kind: 'tag',
      branch: null,
      created: true,
      deleted: false,
      commits: [],
      truncated: false,
    });
    expect(event.tag).toEqual({ name: 'v2.4.0', commitId: SHA.second, message: 'Release 2.4.0' });
  });

  it('reads a branch deletion as a deleted push without commits', () => {
    const payload = gitlabPushPayload({ after: ZEROS, checkout_sha: null, commits: [], total_commits_count: 0 });
    const event = parseGitlabWebhook(gitlab(payload), { secret: SECRET });
    expect(event).toMatchObject({ kind: 'push', branch: 'release/2.4', deleted: true, commits: [], truncated: false });
  });

  it('checks the token before reading the body', () => {
    expect(failure(gitlab(gitlabPushPayload(), { 'x-gitlab-token': 'tok-ci-7f3b' }))).toBe('bad_signature');
    expect(failure(gitlab(gitlabPushPayload(), { 'x-gitlab-token': `${SECRET}x` }))).toBe('bad_signature');
    expect(failure(request('not json', { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'wrong' }))).toBe(
      'bad_signature',
    );
    expect(failure(request(JSON.stringify(gitlabPushPayload()), { 'x-gitlab-event': 'Push Hook' }))).toBe(
      'missing_signature',
    );
  });

  it('skips verification only when the secret is explicitly null', () => {
    const unsigned = request(JSON.stringify(gitlabPushPayload()), { 'x-gitlab-event': 'Push Hook' });
    expect(parseGitlabWebhook(unsigned, { secret: null }).commits).toHaveLength(2);
    expect(failure(unsigned, '')).toBe('missing_signature');
  });

  it('ignores other events so the hook still answers 2xx, and refuses deliveries without an event', () => {
    const mr = parseGitlabWebhook(gitlab({ object_kind: 'merge_request' }, {}, 'Merge Request Hook'), {
      secret: SECRET,
    });
    expect(mr).toMatchObject({ kind: 'ignored', event: 'Merge Request Hook', commits: [] });
    expect(failure(request('{}', { 'x-gitlab-token': SECRET }))).toBe('unsupported_event');
  });

  it('refuses bodies that are not a push payload', () => {
    expect(failure(gitlab('{"ref":'))).toBe('bad_payload');
    expect(failure(request('{"ref":', { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET }))).toBe(
      'bad_payload',
    );
    expect(failure(gitlab(gitlabPushPayload({ after: 'not-a-sha' })))).toBe('bad_payload');
    const [first, second] = gitlabPushPayload().commits as Record<string, unknown>[];
    expect(failure(gitlab(gitlabPushPayload({ commits: [{ ...first, timestamp: 'yesterday' }, second] })))).toBe(
      'bad_payload',
    );
  });
});
