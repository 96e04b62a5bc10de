import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function createSettingsRepository(db: Kysely<Database>) {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    async get(key: string): Promise<string | undefined> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value;
    },
    /**
     * Deletes a setting so that its bytes do not stay in the database files: SQLite zeroes the freed space
     * (secure_delete) and empties the WAL; PostgreSQL rewrites the (small) table without the dead row.
     */
    async deleteScrubbed(key: string) {
      if (isPostgres) {
        await db.deleteFrom('settings').where('key', '=', key).execute();
        await sql`vacuum full settings`.execute(db);
        return;
      }
      await db.connection().execute(async (conn) => {
        await sql`pragma secure_delete = on`.execute(conn);
        try {
          await conn.deleteFrom('settings').where('key', '=', key).execute();
        } finally {
          await sql`pragma secure_delete = off`.execute(conn);
        }
        await sql`pragma wal_checkpoint(truncate)`.execute(conn);
      });
    },
    async set(key: string, value: string, now: number) {
      await db
        .insertInto('settings')
        .values({ key, value, update_time: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, update_time: now }))
        .execute();
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
