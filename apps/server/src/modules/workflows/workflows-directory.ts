import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createWorkflowsRepository } from './workflows.repository.ts';

/**
 * What other modules may read and write of workflows (commit-logs, sync, lark-docs): built by workflows, so no other
 * module holds its repository. Takes a transaction too (commit ingest of a Lark event writes in its own).
 */
export function createWorkflowsDirectory(db: Kysely<Database>) {
  const workflows = createWorkflowsRepository(db);
  return {
    findById: workflows.findById,
    findByIds: workflows.findByIds,
    listByApp: workflows.listByApp,
    findByWebhookToken: workflows.findByWebhookToken,
    packageWorkflows: workflows.packageWorkflows,
    polled: workflows.polled,
    update: workflows.update,
  };
}
export type WorkflowsDirectory = ReturnType<typeof createWorkflowsDirectory>;
