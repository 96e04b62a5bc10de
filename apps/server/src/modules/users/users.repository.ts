import { sql, type Kysely } from 'kysely';
import type { Database, NewUser, UserUpdate } from '../../db/schema.ts';

const userColumns = [
  'u.id as userId',
  'u.username as username',
  'u.role_id as roleId',
  'r.role_name as roleName',
  'r.role_level as roleLevel',
  'u.phone as phone',
  'u.create_time as createTime',
] as const;

// Both sides are lowered in SQL: SQLite's lower() folds only ASCII, so lowering one side in JS
// would miss names like "Élodie" there (and let the unique index turn a duplicate into a 500).
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function createUsersRepository(db: Kysely<Database>) {
  function baseQuery() {
    return db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id');
  }
  return {
    async findByUsername(username: string) {
      return baseQuery()
        .select([...userColumns, 'u.password_hash as passwordHash', 'u.private_url as privateUrl'])
        .where(sql<string>`lower(u.username)`, '=', sql<string>`lower(${username})`)
        .executeTakeFirst();
    },

    /** Users with this phone number (Lark sign-in links an account whose phone matches, when exactly one does). */
    async findByPhone(phone: string) {
      return baseQuery().select(userColumns).where('u.phone', '=', phone).limit(2).execute();
    },

    async findById(userId: number) {
      return baseQuery().select(userColumns).where('u.id', '=', userId).executeTakeFirst();
    },

    async list(query: { offset: number; limit: number; keyword?: string }) {
      let q = baseQuery();
      if (query.keyword) {
        q = q.where(
          sql<string>`lower(u.username)`,
          'like',
          sql<string>`lower(${`%${escapeLike(query.keyword)}%`}) escape '\\'`,
        );
      }
      const [rows, count] = await Promise.all([
        q.select(userColumns).orderBy('u.id', 'asc').offset(query.offset).limit(query.limit).execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ]);
      return { rows, total: Number(count?.n ?? 0) };
    },

    async listBrief() {
      return baseQuery()
        .select(['u.id as userId', 'u.username as username', 'r.role_level as roleLevel'])
        .orderBy('u.username')
        .execute();
    },

    async insert(user: NewUser): Promise<number> {
      const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async update(userId: number, changes: UserUpdate) {
      await db.updateTable('users').set(changes).where('id', '=', userId).execute();
    },

    async delete(userId: number) {
      await db.deleteFrom('users').where('id', '=', userId).execute();
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async countAdmins(): Promise<number> {
      const row = await baseQuery()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('r.role_level', '=', 100)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
