import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function createSettingsRepository(db: Kysely<Database>) {
  return {
    async get(key: string): Promise<string | undefined> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value;
    },
    /** Stores the value only when the key is absent; answers the value that is stored. */
    async setIfAbsent(key: string, value: string, now: number): Promise<string> {
      await db.insertInto('settings').values({ key, value, update_time: now }).onConflict((oc) => oc.column('key').doNothing()).execute();
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
      return row.value;
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
