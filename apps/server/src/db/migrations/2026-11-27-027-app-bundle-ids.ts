import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * apps.bundle_ids: the ids packages must carry per platform, as JSON text {"ios":[…],"android":[…],"mac":[…]}.
 * Existing apps take the id of each platform's latest version. apps.bundle_id (the first upload's id, whatever its
 * platform) goes: the list says the same per platform.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('apps')
    .addColumn('bundle_ids', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  const latest = await sql<{ app_id: number | string; native_package_type: string; bundle_id: string }>`
    select v.app_id, v.native_package_type, v.bundle_id
    from app_versions v
    where v.bundle_id is not null
      and v.native_package_type in ('ios', 'android', 'mac')
      and v.index_no = (
        select max(w.index_no) from app_versions w
        where w.app_id = v.app_id and w.native_package_type = v.native_package_type and w.bundle_id is not null
      )`.execute(db);
  const byApp = new Map<number, Record<string, string[]>>();
  for (const row of latest.rows) {
    const appId = Number(row.app_id);
    const ids = byApp.get(appId) ?? { ios: [], android: [], mac: [] };
    ids[row.native_package_type] = [row.bundle_id];
    byApp.set(appId, ids);
  }
  for (const [appId, ids] of byApp)
    await db
      .updateTable('apps')
      .set({ bundle_ids: JSON.stringify(ids) })
      .where('id', '=', appId)
      .execute();
  await db.schema.alterTable('apps').dropColumn('bundle_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('apps').addColumn('bundle_id', 'varchar(255)').execute();
  const apps = await db.selectFrom('apps').select(['id', 'bundle_ids']).execute();
  for (const app of apps as Array<{ id: number; bundle_ids: string }>) {
    const ids = JSON.parse(app.bundle_ids) as Record<string, string[] | undefined>;
    const main = ids.ios?.[0] ?? ids.android?.[0] ?? ids.mac?.[0] ?? null;
    if (main) await db.updateTable('apps').set({ bundle_id: main }).where('id', '=', app.id).execute();
  }
  await db.schema.alterTable('apps').dropColumn('bundle_ids').execute();
}
