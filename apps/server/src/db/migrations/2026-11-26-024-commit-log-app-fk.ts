import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * PostgreSQL only: commit_logs.app_id loses its foreign key. The item's workflow (whose foreign key stays, with its
 * cascade) already belongs to that app, and apps are never deleted, so the key only checked again what the workflow
 * key checks. Its trigger cost a fifth of the backend's time per ingested item (bench/git-ingest.ts: 0.4 s of 2.5 s for
 * 100,000 rows). SQLite keeps it: its check is one primary-key probe, and dropping a foreign key there means
 * rebuilding the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema.alterTable('commit_logs').dropConstraint('commit_logs_app_id_fkey').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema
    .alterTable('commit_logs')
    .addForeignKeyConstraint('commit_logs_app_id_fkey', ['app_id'], 'apps', ['id'])
    .onDelete('cascade')
    .execute();
}
