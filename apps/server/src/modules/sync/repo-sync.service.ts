import path from 'node:path';
import { branchNames } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { GitError } from '../../integrations/git/git-command.ts';
import { readNewCommits, syncMirror } from '../../integrations/git/git-mirror.ts';
import { mirrorDirFor } from '../../integrations/git/remote-url.ts';
import { SvnError } from '../../integrations/svn/svn-command.ts';
import { readSvnLog } from '../../integrations/svn/svn-log.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { CommitIngestService } from '../commit-logs/commit-ingest.service.ts';
import type { CommitLogsRepository } from '../commit-logs/commit-logs.repository.ts';
import type { WorkflowRecord, WorkflowsRepository } from '../workflows/workflows.repository.ts';

/**
 * How many commits one sync stores at most (the next sync goes on from there): a first import of a huge history
 * is spread over polls, each well inside git's read timeout. Memory is bounded by the batch, not by this.
 */
const MAX_COMMITS_PER_SYNC = 100_000;
/** New commits are stored every this many while the history is walked (one walk per sync). */
const INGEST_BATCH = 10_000;

export interface SyncResult {
  created: number;
  error: string | null;
}

/**
 * Polls git and svn workflows into update items. Committer filters are applied at display time
 * (filtered items are kept and hidden), so sources are read unfiltered by committer.
 */
export function createRepoSyncService(deps: { workflows: WorkflowsRepository; logs: CommitLogsRepository; ingest: CommitIngestService; policy: AppsPolicy; mirrorsDir: string; clock: Clock; allowFileRemotes: boolean }) {
  const { workflows, logs, ingest, clock } = deps;
  const running = new Map<number, Promise<SyncResult>>();

  async function syncGit(workflow: WorkflowRecord): Promise<number> {
    const remote = workflow.repo_path ?? '';
    const mirror = mirrorDirFor(deps.mirrorsDir, remote);
    await syncMirror(remote, mirror, { allowFile: deps.allowFileRemotes });
    const known = await logs.knownCommitIds(workflow.id);
    let created = 0;
    const { commits } = await readNewCommits(mirror, { branches: branchNames(workflow.default_branch), committers: [] }, (id) => known.has(id), {
      maxCommits: MAX_COMMITS_PER_SYNC,
      batchSize: INGEST_BATCH,
      onBatch: async (batch) => {
        created += await ingest.ingestCommits(workflow, batch);
      },
    });
    return created + (await ingest.ingestCommits(workflow, commits));
  }

  async function syncSvn(workflow: WorkflowRecord): Promise<number> {
    const last = await logs.lastSvnRevision(workflow.id);
    let created = 0;
    let from = (last ?? 0) + 1;
    for (let round = 0; round < 40; round += 1) {
      const page = await readSvnLog(workflow.repo_path ?? '', { fromRevision: from, limit: 500, allowFile: deps.allowFileRemotes });
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
      return { created, error: null };
    } catch (error) {
      if (!(error instanceof GitError) && !(error instanceof SvnError)) throw error;
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
      if (workflow.content_type !== 'default' || (workflow.repo_type !== 'git' && workflow.repo_type !== 'svn')) throw AppError.badRequest('只有 git 和 svn 仓库工作流可以同步');
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
