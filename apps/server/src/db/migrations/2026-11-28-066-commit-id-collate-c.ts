import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * PostgreSQL only: commit_logs.commit_id compares byte by byte (COLLATE "C"). Commit ids are git hashes, svn
 * revisions and pushed keys, never words to sort by a language; under the database's locale every comparison in the
 * unique (workflow_id, commit_id) index went through strcoll, and a sync's questions "which of these ids are stored"
 * (a dozen comparisons per id) and its inserts spent most of the backend's time there (bench/git-ingest.ts, 100,000
 * commits: PostgreSQL CPU 2.8 s → 1.7 s). Equality is unchanged (a deterministic collation), a hash prefix range is
 * now exactly the byte range, and the index is rebuilt here (the table is not rewritten). SQLite compares bytes
 * already (BINARY).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table commit_logs alter column commit_id type varchar(128) collate "C"`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table commit_logs alter column commit_id type varchar(128) collate "default"`.execute(db);
}
