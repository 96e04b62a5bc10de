import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../integrations/webhooks/index.ts';
import type { SourceCommit } from '../../integrations/source-commit.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';
import { isPolled, planDelivery, sameSecret, takesPushes, takesWebhooks } from './inbound-rules.ts';

const commit = (commitId: string, branch: string | null): SourceCommit => ({
  commitId,
  branch,
  authorName: 'Ola',
  authorEmail: null,
  commitTime: 0,
  message: 'fix',
  tags: [],
  tagSummary: [],
  url: null,
  files: null,
});

function event(overrides: Partial<WebhookEvent>): WebhookEvent {
  return {
    provider: 'gitlab',
    kind: 'push',
    event: 'Push Hook',
    deliveryId: 'd-1',
    ref: 'refs/heads/main',
    branch: 'main',
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
    ...overrides,
  };
}

const workflow = (overrides: Partial<WorkflowRecord>) =>
  ({ content_type: 'default', repo_type: 'git', ...overrides }) as WorkflowRecord;

describe('what a push webhook asks of its workflow', () => {
  it('answers pings and events it does not take without recording them', () => {
    expect(planDelivery(event({ kind: 'ping' }), 'main')).toEqual({ kind: 'nothing' });
    expect(planDelivery(event({ kind: 'ignored', branch: null }), null)).toEqual({ kind: 'nothing' });
  });

  it('puts a pushed tag on its commit, whatever the branch filter', () => {
    const tag = { name: 'v2.4.0', commitId: 'abc', message: '正式版' };
    expect(planDelivery(event({ kind: 'tag', branch: null, tag }), 'main')).toEqual({ kind: 'tag', tag });
  });

  it('stores nothing for a deleted tag on a filtered workflow, and nothing new without a filter', () => {
    const deleted = event({
      kind: 'tag',
      branch: null,
      deleted: true,
      tag: { name: 'v1', commitId: null, message: null },
    });
    expect(planDelivery(deleted, 'main')).toEqual({ kind: 'other-branch', received: 0 });
    expect(planDelivery(deleted, '')).toEqual({ kind: 'commits', commits: [], resync: false });
  });

  it('takes the commits of the filtered branches only (comma-separated names; empty means all)', () => {
    const commits = [commit('a', 'release/2.4'), commit('b', 'release/2.4')];
    const push = event({ branch: 'release/2.4', commits });
    expect(planDelivery(push, 'main')).toEqual({ kind: 'other-branch', received: 2 });
    expect(planDelivery(push, 'main, release/2.4')).toEqual({ kind: 'commits', commits, resync: false });
    expect(planDelivery(push, null)).toEqual({ kind: 'commits', commits, resync: false });
  });

  it('reads the mirror as well when the host cut its list short', () => {
    expect(
      planDelivery(event({ commits: [commit('a', 'main')], truncated: true, totalCommits: 30 }), 'main'),
    ).toMatchObject({ kind: 'commits', resync: true });
  });
});

describe('which workflows take which changes', () => {
  it('gives webhooks to git workflows, pushes to custom and reporting kinds, polls to git and svn', () => {
    expect([takesWebhooks(workflow({})), takesWebhooks(workflow({ repo_type: 'svn' }))]).toEqual([true, false]);
    expect(
      ['JPS', 'JPS_GAME', 'wiki', 'other', 'git', 'svn'].map((repo_type) => takesPushes(workflow({ repo_type }))),
    ).toEqual([true, true, true, true, false, false]);
    expect(takesPushes(workflow({ content_type: 'custom', repo_type: 'git' }))).toBe(true);
    expect(['git', 'svn', 'JPS', 'wiki'].map((repo_type) => isPolled(workflow({ repo_type })))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(isPolled(workflow({ content_type: 'custom', repo_type: 'git' }))).toBe(false);
  });

  it('compares push secrets whole', () => {
    expect([
      sameSecret('s3cret', 's3cret'),
      sameSecret('s3cre', 's3cret'),
      sameSecret('s3cref', 's3cret'),
      sameSecret('', 's3cret'),
    ]).toEqual([true, false, false, false]);
  });
});
