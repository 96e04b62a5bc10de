import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createCommitLogsRepository } from './commit-logs.repository.ts';

/**
 * What the inbound service and repository sync may read and write of update items (which are known, the last svn
 * revision, deliveries, tags), and what a version's changes read of them: built by commit-logs, so no other module
 * holds its repository.
 */
export function createCommitLogsDirectory(db: Kysely<Database>) {
  const logs = createCommitLogsRepository(db);
  return {
    knownAmong: logs.knownAmong,
    lastSvnRevision: logs.lastSvnRevision,
    recordDelivery: logs.recordDelivery,
    setTag: logs.setTag,
    // What a version changed since the one before (changes, issue 19).
    findByCommit: logs.findByCommit,
    byCommits: logs.byCommits,
    boundTo: logs.boundTo,
    inWindow: logs.inWindow,
  };
}
export type CommitLogsDirectory = ReturnType<typeof createCommitLogsDirectory>;
