import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { type TableInfo, tableRef } from './table-catalog.ts';

/** A row as copied: its values in the table's (sorted) column order. Our columns hold integers, text or NULL. */
export type RowValues = Array<number | string | null>;

type AnyDb = Kysely<Database>;
type Place = Pick<DatabaseHandle, 'dialect' | 'schema'>;

/** Rows per read: one indexed range each. */
export const READ_BATCH = 1000;

function copiedValue(table: TableInfo, column: string, value: unknown): number | string | null {
  if (value === null || typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  throw new Error(`${table.name}.${column} holds a value of type ${typeof value} that cannot be copied`);
}

/**
 * The table's rows in primary-key order, a batch at a time (keyset paging: every batch is one indexed range read,
 * however large the table). Inside one transaction the batches are one consistent snapshot.
 */
export async function* readRows(
  db: AnyDb,
  place: Place,
  table: TableInfo,
  batchRows = READ_BATCH,
): AsyncGenerator<RowValues[]> {
  const key = sql.join(table.primaryKey.map((c) => sql.ref(c)));
  const columns = sql.join(table.columns.map((c) => sql.ref(c)));
  const keyIndexes = table.primaryKey.map((c) => table.columns.indexOf(c));
  let after: RowValues | null = null;
  for (;;) {
    const where: ReturnType<typeof sql> = after ? sql`where (${key}) > (${sql.join(after)})` : sql``;
    const result = await sql<Record<string, unknown>>`
      select ${columns} from ${tableRef(place, table.name)} ${where} order by ${key} limit ${batchRows}`.execute(db);
    if (!result.rows.length) return;
    const rows = result.rows.map((row) => table.columns.map((c) => copiedValue(table, c, row[c])));
    yield rows;
    const last = rows[rows.length - 1] as RowValues;
    after = keyIndexes.map((i) => last[i] ?? null);
    if (rows.length < batchRows) return;
  }
}

const MASK = (1n << 256n) - 1n;

/**
 * Row count and a checksum of a table's rows that does not depend on their order: the sum of each row's SHA-256
 * (modulo 2^256). PostgreSQL and SQLite sort text differently, so an ordered hash would differ for equal tables.
 */
export class TableDigest {
  rows = 0;
  private sum = 0n;
  add(values: RowValues): void {
    this.rows += 1;
    this.sum = (this.sum + BigInt(`0x${createHash('sha256').update(JSON.stringify(values)).digest('hex')}`)) & MASK;
  }
  get checksum(): string {
    return this.sum.toString(16).padStart(64, '0');
  }
}

/** Count and checksum of a table as it stands (inside the caller's transaction, if any). */
export async function digestTable(db: AnyDb, place: Place, table: TableInfo): Promise<TableDigest> {
  const digest = new TableDigest();
  for await (const batch of readRows(db, place, table)) for (const row of batch) digest.add(row);
  return digest;
}

/** Rows per INSERT: well under both databases' limits on bound parameters (SQLite 32,766; PostgreSQL 65,535). */
export function insertBatchSize(table: TableInfo): number {
  return Math.max(1, Math.min(500, Math.floor(20_000 / table.columns.length)));
}

/**
 * Inserts rows (values in the table's column order). A row whose primary key is there already is overwritten with
 * the given values (`replace`, for a copy run again after an interrupt: no duplicates, and rows changed since agree
 * again) or left as it is (`keep`).
 */
export async function insertRows(
  db: AnyDb,
  place: Place,
  table: TableInfo,
  rows: RowValues[],
  onConflict: 'keep' | 'replace' = 'keep',
): Promise<void> {
  if (!rows.length) return;
  const columns = sql.join(table.columns.map((c) => sql.ref(c)));
  const values = sql.join(rows.map((row) => sql`(${sql.join(row)})`));
  const others = table.columns.filter((c) => !table.primaryKey.includes(c));
  const conflict =
    onConflict === 'replace' && others.length
      ? sql`on conflict (${sql.join(table.primaryKey.map((c) => sql.ref(c)))}) do update set ${sql.join(
          others.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`),
        )}`
      : sql`on conflict do nothing`;
  await sql`insert into ${tableRef(place, table.name)} (${columns}) values ${values} ${conflict}`.execute(db);
}

/** PostgreSQL: every id sequence continues after the highest id copied in (SQLite's AUTOINCREMENT follows by itself). */
export async function resetSequences(db: AnyDb, place: Place): Promise<void> {
  if (place.dialect !== 'postgres') return;
  const schema = place.schema ?? 'public';
  const serials = await sql<{ table: string; column: string; sequence: string }>`
    select c.relname as "table", a.attname as "column",
      pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) as sequence
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
    where ns.nspname = ${schema} and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      and pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) is not null`.execute(
    db,
  );
  for (const s of serials.rows) {
    await sql`select setval(${s.sequence}::regclass, coalesce((select max(${sql.ref(s.column)}) from ${tableRef(place, s.table)}), 0) + 1, false)`.execute(
      db,
    );
  }
}
