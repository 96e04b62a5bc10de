import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { InboundService } from './inbound.service.ts';

/**
 * The first sync of a repository workflow saved new or with another address, kind or branches, queued by the save
 * (from the web or the API alike) so its history shows without waiting for the next poll. A sync that ran since the
 * save (an editor's 同步) makes it unnecessary; a workflow deleted or changed to another kind meanwhile is skipped.
 */
export function createRepoSyncJob(deps: { inbound: InboundService; jobs: JobQueue; clock: Clock }) {
  const job = defineJob({
    kind: 'repo-sync.saved',
    payload: z.object({ workflowId: z.number().int(), savedAt: z.number() }),
    // A sync records its own failure on the workflow (the tab says why); the next poll tries again.
    maxAttempts: 1,
    run: (payload) => deps.inbound.pollWorkflow(payload.workflowId, { unlessSyncedSince: payload.savedAt }),
  });
  deps.jobs.register(job);
  return {
    job,
    async queue(workflowId: number) {
      await deps.jobs.enqueue(job, { workflowId, savedAt: deps.clock.now() });
    },
  };
}
