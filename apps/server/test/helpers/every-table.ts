import { sql } from 'kysely';
import { listTables, tableRef } from '../../src/admin/table-catalog.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';

interface Column {
  name: string;
  integer: boolean;
  /** bigint (else a 32-bit integer on PostgreSQL). */
  big: boolean;
  maxLength: number | null;
  nullable: boolean;
  references?: { table: string; column: string };
}

type Place = Pick<DatabaseHandle, 'db' | 'dialect' | 'schema'>;

async function columnsOf(place: Place, table: string): Promise<Column[]> {
  if (place.dialect === 'sqlite') {
    const columns = await sql<{ name: string; type: string; notnull: number; pk: number }>`
      select name, type, "notnull", pk from pragma_table_info(${table})`.execute(place.db);
    const keys = await sql<{ from: string; table: string; to: string }>`
      select "from", "table", "to" from pragma_foreign_key_list(${table})`.execute(place.db);
    return columns.rows.map((c) => {
      const key = keys.rows.find((k) => k.from === c.name);
      return {
        name: c.name,
        integer: /int/i.test(c.type),
        big: /bigint/i.test(c.type),
        maxLength: Number(/\((\d+)\)/.exec(c.type)?.[1] ?? 0) || null,
        nullable: !c.notnull && !c.pk,
        ...(key ? { references: { table: key.table, column: key.to } } : {}),
      };
    });
  }
  const schema = place.schema ?? 'public';
  const columns = await sql<{ name: string; type: string; length: number | null; nullable: string }>`
    select column_name as name, data_type as type, character_maximum_length as length, is_nullable as nullable
    from information_schema.columns where table_schema = ${schema} and table_name = ${table}`.execute(place.db);
  const keys = await sql<{ from: string; table: string; to: string }>`
    select a.attname as "from", t.relname as "table", ta.attname as "to"
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class c on c.oid = con.conrelid
    join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
    join pg_catalog.pg_class t on t.oid = con.confrelid
    join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum = con.conkey[1]
    join pg_catalog.pg_attribute ta on ta.attrelid = t.oid and ta.attnum = con.confkey[1]
    where ns.nspname = ${schema} and c.relname = ${table} and con.contype = 'f'`.execute(place.db);
  return columns.rows.map((c) => {
    const key = keys.rows.find((k) => k.from === c.name);
    return {
      name: c.name,
      integer: /int/.test(c.type),
      big: c.type === 'bigint',
      maxLength: c.length,
      nullable: c.nullable === 'YES',
      ...(key ? { references: { table: key.table, column: key.to } } : {}),
    };
  });
}

/** Text that a copy must keep exactly: quotes, backslash, tab, newline, CJK, emoji; long in unbounded columns. */
function textFor(table: string, column: Column, i: number): string {
  const text = `${i}|${table}.${column.name}|发布 "引号" 'a' \\ \t\n😀`;
  if (column.maxLength) return text.slice(0, column.maxLength);
  return i === 2 ? `${text}${'长文本'.repeat(20_000)}` : text;
}

/**
 * Writes `rowsPerTable` rows into every table the migrations made, parents first, whatever it holds — NULLs, the
 * longest text a column takes, large integers, foreign keys to the rows written before. Read from the schema, so a
 * table added later gets rows too, and a copy that skips it fails the test.
 */
export async function fillEveryTable(place: Place, rowsPerTable = 3): Promise<string[]> {
  const written = new Map<string, Array<Record<string, unknown>>>();
  const tables = await listTables(place);
  for (const table of tables) {
    const columns = await columnsOf(place, table.name);
    const rows: Array<Record<string, unknown>> = [];
    for (let i = 0; i < rowsPerTable; i += 1) {
      const row: Record<string, unknown> = {};
      columns.forEach((column, index) => {
        // <thing>_id names a row of <thing>s even without a foreign key (commit_logs.app_id has none on PostgreSQL).
        const named = /^(.+)_id$/.exec(column.name)?.[1];
        const reference =
          column.references ??
          (named && column.big && written.has(`${named}s`) ? { table: `${named}s`, column: 'id' } : undefined);
        const parent = reference && written.get(reference.table);
        if (reference && parent?.length)
          row[column.name] = column.nullable && i === 0 ? null : parent[i % parent.length]?.[reference.column];
        else if (column.nullable && i === 0) row[column.name] = null;
        else if (column.integer) row[column.name] = (column.big ? 9_000_000_000_000 : 1_000_000) + i * 100 + index;
        else row[column.name] = textFor(table.name, column, i);
      });
      const names = Object.keys(row);
      await sql`insert into ${tableRef(place, table.name)} (${sql.join(names.map((n) => sql.ref(n)))})
        values (${sql.join(names.map((n) => row[n]))})`.execute(place.db);
      rows.push(row);
    }
    written.set(table.name, rows);
  }
  return tables.map((t) => t.name);
}
