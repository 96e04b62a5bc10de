import type { Kysely } from 'kysely';
import type { Database, UserIdentitiesTable } from '../../db/schema.ts';

type Provider = UserIdentitiesTable['provider'];

/** Links between local users and their Lark / WeCom accounts. */
export function createIdentitiesRepository(db: Kysely<Database>) {
  return {
    async findBySubject(provider: Provider, subject: string) {
      return db
        .selectFrom('user_identities')
        .selectAll()
        .where('provider', '=', provider)
        .where('subject', '=', subject)
        .executeTakeFirst();
    },

    async listOf(userId: number) {
      return db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).orderBy('provider').execute();
    },

    async hasProvider(userId: number, provider: Provider): Promise<boolean> {
      const row = await db
        .selectFrom('user_identities')
        .select('id')
        .where('user_id', '=', userId)
        .where('provider', '=', provider)
        .executeTakeFirst();
      return Boolean(row);
    },

    async insert(row: Omit<UserIdentitiesTable, 'id'>) {
      await db.insertInto('user_identities').values(row).execute();
    },

    async touch(
      provider: Provider,
      subject: string,
      changes: { display_name: string; avatar_url: string | null; union_id: string | null; last_login_time: number },
    ) {
      await db
        .updateTable('user_identities')
        .set(changes)
        .where('provider', '=', provider)
        .where('subject', '=', subject)
        .execute();
    },

    async remove(userId: number, provider: Provider) {
      await db.deleteFrom('user_identities').where('user_id', '=', userId).where('provider', '=', provider).execute();
    },
  };
}
export type IdentitiesRepository = ReturnType<typeof createIdentitiesRepository>;
