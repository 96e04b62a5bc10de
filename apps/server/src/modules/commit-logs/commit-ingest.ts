import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { createVersionsDirectory } from '../versions/versions-directory.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';
import { createWorkflowsDirectory } from '../workflows/workflows-directory.ts';
import { createCommitIngestService } from './commit-ingest.service.ts';
import { createCommitLogsRepository } from './commit-logs.repository.ts';

/**
 * Commit ingest on a database or a transaction (lark-docs writes an event's items in its own): commit-logs' own
 * repository, and the directories workflows and versions hand out.
 */
export function createCommitIngest(
  db: Kysely<Database>,
  deps: { clock: Clock; onNewItems?: (workflows: WorkflowRecord[]) => Promise<void> },
) {
  return createCommitIngestService({
    logs: createCommitLogsRepository(db),
    workflows: createWorkflowsDirectory(db),
    versions: createVersionsDirectory(db),
    ...deps,
  });
}
