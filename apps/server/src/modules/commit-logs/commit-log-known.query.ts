import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Ids per question: below SQLite's parameter limit. */
const ID_CHUNK = 5_000;

/**
 * Which of these commit ids the workflow already has: probes of the unique (workflow_id, commit_id) index, so a sync
 * asks per stretch of git's output and costs the same at 1,000 stored items as at 1,000,000. PostgreSQL: one array
 * parameter, each id looked up on its own (a LATERAL subquery with LIMIT is not flattened: it stays one probe of the
 * unique index per id). An `IN (…)` list was planned from the workflow's statistics, and for a workflow they do not
 * know yet (its first sync, a fresh table) the plan read every stored item of the workflow per question: a first
 * sync of 100,000 commits grew quadratically (bench/git-ingest.ts).
 */
export async function knownAmong(
  db: Kysely<Database>,
  workflowId: number,
  commitIds: readonly string[],
): Promise<Set<string>> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const known = new Set<string>();
  for (let i = 0; i < commitIds.length; i += ID_CHUNK) {
    const part = commitIds.slice(i, i + ID_CHUNK);
    const rows = isPostgres
      ? (
          await sql<{ commit_id: string }>`select k.commit_id from unnest(${part}::text[]) as k(commit_id)
            cross join lateral (select 1 from commit_logs c
              where c.workflow_id = ${workflowId} and c.commit_id = k.commit_id limit 1) as stored`.execute(db)
        ).rows
      : await db
          .selectFrom('commit_logs')
          .select('commit_id')
          .where('workflow_id', '=', workflowId)
          .where('commit_id', 'in', part)
          .execute();
    for (const row of rows) known.add(row.commit_id);
  }
  return known;
}
