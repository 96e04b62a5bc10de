import { timingSafeEqual } from 'node:crypto';
import { branchNames } from '@release/contract';
import type { WebhookEvent, WebhookTag } from '../../integrations/webhooks/index.ts';
import type { SourceCommit } from '../../integrations/source-commit.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';

/**
 * What a verified push webhook asks of its workflow. The rules only: the inbound service records the delivery (every
 * plan but `nothing` is recorded first, so a redelivery changes nothing) and carries the plan out.
 */
export type DeliveryPlan =
  /** A ping or an event we do not take: answered, not recorded. */
  | { kind: 'nothing' }
  /** A tag pushed: its name goes on the tagged commit's item (when the host named the commit). */
  | { kind: 'tag'; tag: WebhookTag }
  /** A push to a branch outside the workflow's branch filter: nothing stored. */
  | { kind: 'other-branch'; received: number }
  /** Commits to store; `resync` when the host cut its list short (the mirror has the rest). */
  | { kind: 'commits'; commits: SourceCommit[]; resync: boolean };

/** The plan for one delivery to a workflow with this branch filter (`default_branch`: names, comma-separated; empty = all). */
export function planDelivery(event: WebhookEvent, branchFilter: string | null): DeliveryPlan {
  if (event.kind === 'ping' || event.kind === 'ignored') return { kind: 'nothing' };
  if (event.kind === 'tag' && event.tag && !event.deleted) return { kind: 'tag', tag: event.tag };
  // A deleted tag or branch has no branch to match (and no commits): with a filter it is another branch's.
  const branches = branchNames(branchFilter);
  if (branches.length && (!event.branch || !branches.includes(event.branch)))
    return { kind: 'other-branch', received: event.commits.length };
  return { kind: 'commits', commits: event.commits, resync: event.truncated };
}

/** Webhooks come from git hosts: only git repository workflows have a webhook address. */
export function takesWebhooks(workflow: WorkflowRecord): boolean {
  return workflow.repo_type === 'git';
}

const PUSHABLE_REPO_TYPES = new Set(['JPS', 'JPS_GAME', 'wiki', 'other']);

/** The push API feeds custom workflows (and the default kinds whose items only a sender can report). */
export function takesPushes(workflow: WorkflowRecord): boolean {
  return (
    workflow.content_type === 'custom' ||
    (workflow.content_type === 'default' && PUSHABLE_REPO_TYPES.has(workflow.repo_type ?? ''))
  );
}

/** A pull (poll or sync) reads git and svn repository workflows only. */
export function isPolled(workflow: WorkflowRecord): boolean {
  return workflow.content_type === 'default' && (workflow.repo_type === 'git' || workflow.repo_type === 'svn');
}

/** The push secret compared in constant time (a wrong one of the same length takes as long as the right one). */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
