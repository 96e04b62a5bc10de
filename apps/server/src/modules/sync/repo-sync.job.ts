import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { WorkflowsRepository } from '../workflows/workflows.repository.ts';
import type { RepoSyncService } from './repo-sync.service.ts';

/**
 * The first sync of a repository workflow saved new or with another address, kind or branches, queued by the save
 * (from the web or the API alike) so its history shows without waiting for the next poll. A sync that ran since the
 * save (an editor's 同步) makes it unnecessary; a workflow deleted or changed to another kind meanwhile is skipped.
 */
export function createRepoSyncJob(deps: { sync: RepoSyncService; workflows: WorkflowsRepository; jobs: JobQueue; clock: Clock }) {
  const job = defineJob({
    kind: 'repo-sync.saved',
    payload: z.object({ workflowId: z.number().int(), savedAt: z.number() }),
    // A sync records its own failure on the workflow (the tab says why); the next poll tries again.
    maxAttempts: 1,
    async run(payload) {
      const workflow = await deps.workflows.findById(payload.workflowId);
      if (!workflow || workflow.content_type !== 'default' || (workflow.repo_type !== 'git' && workflow.repo_type !== 'svn')) return { skipped: 'not a repository workflow' };
      if (workflow.last_sync_time !== null && workflow.last_sync_time >= payload.savedAt) return { skipped: 'synced since' };
      return deps.sync.syncOnce(workflow);
    },
  });
  deps.jobs.register(job);
  return {
    job,
    async queue(workflowId: number) {
      await deps.jobs.enqueue(job, { workflowId, savedAt: deps.clock.now() });
    },
  };
}
