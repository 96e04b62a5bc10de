import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function createRolesRepository(db: Kysely<Database>) {
  return {
    async list(offset: number, limit: number) {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('roles as r')
          .leftJoin('users as u', 'u.role_id', 'r.id')
          .select((eb) => [
            'r.id as roleId',
            'r.role_name as roleName',
            'r.role_level as roleLevel',
            'r.builtin as builtin',
            eb.fn.count<number>('u.id').as('userCount'),
          ])
          .groupBy(['r.id', 'r.role_name', 'r.role_level', 'r.builtin'])
          .orderBy('r.role_level', 'desc')
          .orderBy('r.id', 'asc')
          .offset(offset)
          .limit(limit)
          .execute(),
        db
          .selectFrom('roles')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ]);
      return { rows, total: Number(count?.n ?? 0) };
    },
    async findById(roleId: number) {
      return db.selectFrom('roles').selectAll().where('id', '=', roleId).executeTakeFirst();
    },
    /** Case-insensitive; lowered in SQL on both sides so it agrees with the unique index on SQLite too. */
    async findByName(name: string) {
      return db
        .selectFrom('roles')
        .selectAll()
        .where(sql<string>`lower(role_name)`, '=', sql<string>`lower(${name})`)
        .executeTakeFirst();
    },
    async insert(role: { roleName: string; roleLevel: number; builtin: boolean; now: number }): Promise<number> {
      const row = await db
        .insertInto('roles')
        .values({
          role_name: role.roleName,
          role_level: role.roleLevel,
          builtin: role.builtin ? 1 : 0,
          create_time: role.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
    async update(roleId: number, changes: { roleName: string; roleLevel: number }) {
      await db
        .updateTable('roles')
        .set({ role_name: changes.roleName, role_level: changes.roleLevel })
        .where('id', '=', roleId)
        .execute();
    },
    async delete(roleId: number) {
      await db.deleteFrom('roles').where('id', '=', roleId).execute();
    },
    async countUsers(roleId: number): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('role_id', '=', roleId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async count(): Promise<number> {
      const row = await db
        .selectFrom('roles')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
export type RolesRepository = ReturnType<typeof createRolesRepository>;
