import path from 'node:path';
import { branchNames } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { GitError } from '../../integrations/git/git-command.ts';
import { readNewCommits, syncMirror } from '../../integrations/git/git-mirror.ts';
import { mirrorDirFor } from '../../integrations/git/remote-url.ts';
import { NO_HOST_RULES } from '../../integrations/repo-access/host-rules.ts';
import {
  DEFAULT_REPO_TIMEOUTS,
  RepoAccessError,
  type RemoteLimits,
  type RepoTimeouts,
} from '../../integrations/repo-access/repo-access-error.ts';
import { createRepoHostGuard, type RepoHostGuard } from '../../integrations/repo-access/repo-host-guard.ts';
import { SvnError } from '../../integrations/svn/svn-command.ts';
import { readSvnLog } from '../../integrations/svn/svn-log.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { CommitIngestService } from '../commit-logs/commit-ingest.service.ts';
import type { CommitLogsDirectory } from '../commit-logs/commit-logs-directory.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';
import type { WorkflowsDirectory } from '../workflows/workflows-directory.ts';
import { sameCommitters } from '../workflows/workflow-columns.ts';
import { isPolled } from './inbound-rules.ts';
import { readWalkedTips, writeWalkedTips } from './walked-tips.ts';

/**
 * How many commits one sync stores at most (the next sync goes on from there): a first import of a huge history
 * is spread over polls, each well inside git's read timeout. Memory is bounded by the batch, not by this.
 */
const MAX_COMMITS_PER_SYNC = 100_000;
/** New commits are stored every this many while the history is walked (one walk per sync). */
const INGEST_BATCH = 10_000;
/** The first store starts after this many, not after a whole batch: the database works while git walks on. */
const FIRST_INGEST_BATCH = 1_000;

export interface SyncResult {
  created: number;
  error: string | null;
}

/**
 * Polls git and svn workflows into update items. Committer filters are applied at display time
 * (filtered items are kept and hidden), so sources are read unfiltered by committer.
 */
export function createRepoSyncService(deps: {
  workflows: WorkflowsDirectory;
  logs: CommitLogsDirectory;
  ingest: CommitIngestService;
  policy: AppsPolicy;
  mirrorsDir: string;
  clock: Clock;
  allowFileRemotes: boolean;
  /** The admin's host rules, checked (and the address pinned) before each git or svn run against a remote. */
  guard?: RepoHostGuard;
  /** Default: DEFAULT_REPO_TIMEOUTS, and a guard with no rules (private addresses refused). */
  timeouts?: RepoTimeouts;
  /** After a sync that succeeded: commits that builds named before the mirror had them are resolved now. */
  onSynced?: (workflow: WorkflowRecord) => Promise<unknown>;
}) {
  const { workflows, logs, ingest, clock } = deps;
  const timeouts = deps.timeouts ?? DEFAULT_REPO_TIMEOUTS;
  const guard = deps.guard ?? createRepoHostGuard({ rules: async () => NO_HOST_RULES, timeouts });
  const running = new Map<number, Promise<SyncResult>>();

  /** The limits of a run against `url`, after its host passed the check; undefined for file://. */
  async function remoteLimits(url: string): Promise<RemoteLimits | undefined> {
    const pin = await guard.reach(url);
    return pin ? { timeouts, pin } : undefined;
  }

  async function syncGit(workflow: WorkflowRecord): Promise<number> {
    const remote = workflow.repo_path ?? '';
    const mirror = mirrorDirFor(deps.mirrorsDir, remote);
    await syncMirror(remote, mirror, { allowFile: deps.allowFileRemotes, remote: await remoteLimits(remote) });
    // Trusted only while every tip is a stored item (a workflow id used again, or a restored database, walks all).
    const saved = await readWalkedTips(deps.mirrorsDir, workflow);
    const storedTips = await logs.knownAmong(workflow.id, saved);
    const walked = saved.every((tip) => storedTips.has(tip)) ? saved : [];
    let created = 0;
    const read = await readNewCommits(
      mirror,
      { branches: branchNames(workflow.default_branch), committers: [] },
      // Asked per chunk of the walk: nothing the size of the stored history is loaded.
      (ids) => logs.knownAmong(workflow.id, ids),
      {
        maxCommits: MAX_COMMITS_PER_SYNC,
        batchSize: INGEST_BATCH,
        firstBatchSize: FIRST_INGEST_BATCH,
        knownTips: walked,
        onBatch: async (batch) => {
          created += await ingest.ingestCommits(workflow, batch);
        },
      },
    );
    created += await ingest.ingestCommits(workflow, read.commits);
    // Everything reachable from these tips is stored now: the next poll walks only what came after them.
    await writeWalkedTips(deps.mirrorsDir, workflow, read.truncated ? null : read.tips);
    return created;
  }

  async function syncSvn(workflow: WorkflowRecord): Promise<number> {
    const last = await logs.lastSvnRevision(workflow.id);
    // svn cannot be told which address to use: the host is checked right before, as close to the run as it gets.
    const limits = await remoteLimits(workflow.repo_path ?? '');
    const remote = limits ? { timeouts: limits.timeouts } : undefined;
    let created = 0;
    let from = (last ?? 0) + 1;
    for (let round = 0; round < 40; round += 1) {
      const page = await readSvnLog(workflow.repo_path ?? '', {
        fromRevision: from,
        limit: 500,
        allowFile: deps.allowFileRemotes,
        remote,
      });
      created += await ingest.ingestCommits(workflow, page.commits);
      if (!page.hasMore || page.lastRevision === null) break;
      from = page.lastRevision + 1;
    }
    return created;
  }

  async function run(workflow: WorkflowRecord): Promise<SyncResult> {
    try {
      const created = workflow.repo_type === 'svn' ? await syncSvn(workflow) : await syncGit(workflow);
      await workflows.update(workflow.id, { last_sync_time: clock.now(), last_sync_error: null });
      await deps.onSynced?.(workflow);
      // The committer filter changed while this sync stored items by the one it started with: decided again.
      const now = await workflows.findById(workflow.id);
      if (now && !sameCommitters(now.committers, workflow.committers)) await ingest.refilter(now);
      return { created, error: null };
    } catch (error) {
      if (!(error instanceof GitError) && !(error instanceof SvnError) && !(error instanceof RepoAccessError))
        throw error;
      // The reason is kept on the workflow so the tab can say why it shows nothing new.
      await workflows.update(workflow.id, { last_sync_time: clock.now(), last_sync_error: error.message });
      return { created: 0, error: error.message };
    }
  }

  /** One sync per workflow at a time in this process; a second request joins the running one. */
  function syncOnce(workflow: WorkflowRecord): Promise<SyncResult> {
    const current = running.get(workflow.id);
    if (current) return current;
    const started = run(workflow).finally(() => running.delete(workflow.id));
    running.set(workflow.id, started);
    return started;
  }

  return {
    syncOnce,
    /** "Refresh" of a repository tab by one of its editors. */
    async syncNow(editor: AuthUser, workflowId: number): Promise<SyncResult> {
      const workflow = await workflows.findById(workflowId);
      if (!workflow) throw AppError.notFound('工作流不存在');
      await deps.policy.assertCanEdit(editor, workflow.app_id);
      if (!isPolled(workflow)) throw AppError.badRequest('只有 git 和 svn 仓库工作流可以同步');
      return syncOnce(workflow);
    },
    /** The scheduled poll of every git and svn workflow, one after another. */
    async syncAll(): Promise<number> {
      let created = 0;
      for (const workflow of await workflows.polled()) created += (await syncOnce(workflow)).created;
      return created;
    },
  };
}
export type RepoSyncService = ReturnType<typeof createRepoSyncService>;

export function defaultMirrorsDir(dataDir: string): string {
  return path.join(dataDir, 'mirrors');
}
