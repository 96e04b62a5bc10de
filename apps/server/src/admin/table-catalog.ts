import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** A table as the database itself describes it: what a copy of its rows needs to know. */
export interface TableInfo {
  name: string;
  /** Column names, sorted (the order rows are written and hashed in, the same on both databases). */
  columns: string[];
  /** The primary key's columns, in key order (every table of ours has one). */
  primaryKey: string[];
  /** Tables this one's foreign keys point at (itself excluded). */
  references: string[];
}

/** Kysely's own bookkeeping: the restored or copied database gets it from running the migrations. */
const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);
/**
 * Derived from commit_logs by its triggers (migration 065, the calendar's counts): never copied, or the items' copy
 * would count them a second time; the target's triggers count the items as they are inserted.
 */
const DERIVED_TABLES = new Set(['commit_log_days', 'commit_log_hours']);

type AnyDb = Kysely<Database>;

async function sqliteTables(db: AnyDb): Promise<TableInfo[]> {
  const names = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const tables: TableInfo[] = [];
  for (const { name } of names.rows) {
    const columns = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${name})`.execute(
      db,
    );
    const keys = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db);
    tables.push({
      name,
      columns: columns.rows.map((c) => c.name).sort(),
      primaryKey: columns.rows
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
      references: [...new Set(keys.rows.map((k) => k.table))].filter((t) => t !== name),
    });
  }
  return tables;
}

async function postgresTables(db: AnyDb, schema: string): Promise<TableInfo[]> {
  const columns = await sql<{ table: string; column: string }>`
    select c.relname as "table", a.attname as "column"
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
    where ns.nspname = ${schema} and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped`.execute(db);
  const keys = await sql<{ table: string; column: string; position: number }>`
    select c.relname as "table", a.attname as "column", k.position::int as position
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class c on c.oid = con.conrelid
    join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
    cross join lateral unnest(con.conkey) with ordinality as k(attnum, position)
    join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
    where ns.nspname = ${schema} and con.contype = 'p'`.execute(db);
  const references = await sql<{ table: string; target: string }>`
    select c.relname as "table", t.relname as target
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class c on c.oid = con.conrelid
    join pg_catalog.pg_class t on t.oid = con.confrelid
    join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
    where ns.nspname = ${schema} and con.contype = 'f'`.execute(db);
  const byName = new Map<string, TableInfo>();
  for (const row of columns.rows) {
    const table = byName.get(row.table) ?? { name: row.table, columns: [], primaryKey: [], references: [] };
    table.columns.push(row.column);
    byName.set(row.table, table);
  }
  for (const table of byName.values()) {
    table.columns.sort();
    table.primaryKey = keys.rows
      .filter((k) => k.table === table.name)
      .sort((a, b) => a.position - b.position)
      .map((k) => k.column);
    table.references = [
      ...new Set(references.rows.filter((r) => r.table === table.name && r.target !== table.name).map((r) => r.target)),
    ];
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Every data table of the database, parents before the tables that point at them (the order rows can be inserted
 * in). Read from the database, not from a list in the code: a table a later migration adds is copied without anyone
 * remembering to name it here.
 */
export async function listTables(handle: Pick<DatabaseHandle, 'db' | 'dialect' | 'schema'>): Promise<TableInfo[]> {
  const all =
    handle.dialect === 'postgres'
      ? await postgresTables(handle.db, handle.schema ?? 'public')
      : await sqliteTables(handle.db);
  const tables = all.filter((t) => !MIGRATION_TABLES.has(t.name) && !DERIVED_TABLES.has(t.name));
  for (const table of tables)
    if (!table.primaryKey.length) throw new Error(`table ${table.name} has no primary key: its rows cannot be copied`);
  return parentsFirst(tables);
}

function parentsFirst(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const ordered: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: TableInfo, path: string[]) => {
    if (state.get(table.name) === 'done') return;
    if (state.get(table.name) === 'visiting')
      throw new Error(`foreign keys form a cycle (${[...path, table.name].join(' → ')}): no insert order exists`);
    state.set(table.name, 'visiting');
    for (const parent of table.references) {
      const target = byName.get(parent);
      if (target) visit(target, [...path, table.name]);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of tables) visit(table, []);
  return ordered;
}

/** The migrations applied to a database, in order (empty when it has never been migrated). */
export async function appliedMigrations(handle: Pick<DatabaseHandle, 'db' | 'dialect' | 'schema'>): Promise<string[]> {
  const tables = await listAllTableNames(handle);
  if (!tables.includes('kysely_migration')) return [];
  const rows = await sql<{
    name: string;
  }>`select name from ${tableRef(handle, 'kysely_migration')} order by name`.execute(handle.db);
  return rows.rows.map((r) => r.name);
}

async function listAllTableNames(handle: Pick<DatabaseHandle, 'db' | 'dialect' | 'schema'>): Promise<string[]> {
  if (handle.dialect === 'postgres') {
    const rows = await sql<{ name: string }>`
      select c.relname as name from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = ${handle.schema ?? 'public'} and c.relkind in ('r', 'p')`.execute(handle.db);
    return rows.rows.map((r) => r.name);
  }
  const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(handle.db);
  return rows.rows.map((r) => r.name);
}

/** A table of the handle's schema, quoted (PostgreSQL: schema-qualified, whatever the connection's search_path). */
export function tableRef(handle: Pick<DatabaseHandle, 'dialect' | 'schema'>, name: string) {
  return handle.dialect === 'postgres' ? sql.table(`${handle.schema ?? 'public'}.${name}`) : sql.table(name);
}
