import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function createCategoriesRepository(db: Kysely<Database>) {
  return {
    async list(offset: number, limit: number) {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('categories as c')
          .leftJoin('apps as a', 'a.category_id', 'c.id')
          .select((eb) => ['c.id as id', 'c.category_name as categoryName', eb.fn.count<number>('a.id').as('appCount')])
          .groupBy(['c.id', 'c.category_name'])
          .orderBy('c.id', 'asc')
          .offset(offset)
          .limit(limit)
          .execute(),
        db
          .selectFrom('categories')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ]);
      return { rows: rows.map((r) => ({ ...r, appCount: Number(r.appCount) })), total: Number(count?.n ?? 0) };
    },
    async countUncategorisedApps(): Promise<number> {
      const row = await db
        .selectFrom('apps')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('category_id', 'is', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async findById(id: number) {
      return db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Case-insensitive; lowered in SQL on both sides so it agrees with the unique index on SQLite too. */
    async findByName(name: string) {
      return db
        .selectFrom('categories')
        .selectAll()
        .where(sql<string>`lower(category_name)`, '=', sql<string>`lower(${name})`)
        .executeTakeFirst();
    },
    async insert(name: string, now: number): Promise<number> {
      const row = await db
        .insertInto('categories')
        .values({ category_name: name, create_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
    async rename(id: number, name: string) {
      await db.updateTable('categories').set({ category_name: name }).where('id', '=', id).execute();
    },
    /** Deletes the category; its apps become uncategorised. */
    async delete(id: number) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('apps').set({ category_id: null }).where('category_id', '=', id).execute();
        await trx.deleteFrom('categories').where('id', '=', id).execute();
      });
    },
  };
}
export type CategoriesRepository = ReturnType<typeof createCategoriesRepository>;
