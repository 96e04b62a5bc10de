import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

export interface SnapshotPlace {
  db: Kysely<Database>;
  dialect: DatabaseHandle['dialect'];
  schema?: string;
}

/**
 * Runs `work` inside one read-only transaction on a connection of its own: every read sees the same instant while
 * the servers keep writing (SQLite: a deferred `begin`, WAL keeps writers going; PostgreSQL: repeatable read).
 */
export function inReadSnapshot<T>(
  source: Pick<DatabaseHandle, 'db' | 'dialect' | 'schema'>,
  work: (place: SnapshotPlace) => Promise<T>,
): Promise<T> {
  return source.db.connection().execute(async (connection) => {
    await sql
      .raw(source.dialect === 'postgres' ? 'begin isolation level repeatable read read only' : 'begin')
      .execute(connection);
    try {
      return await work({ db: connection, dialect: source.dialect, schema: source.schema });
    } finally {
      await sql.raw('rollback').execute(connection);
    }
  });
}
