import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import { markPostgresError } from './faults.ts';
import type { PgPool } from './pg-pool.ts';

/** Rows per chunk handed to the COPY stream: a few hundred KB of text at a time, whatever the batch. */
const ROWS_PER_CHUNK = 1_000;
const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One value in COPY's text format: NULL is `\N`, and backslash, tab, newline and CR are escaped. */
export function copyTextValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  const text = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ESCAPES[c] ?? c) : text;
}

/** The rows as COPY text, ROWS_PER_CHUNK lines at a time (a plain loop: this runs for every value of a sync). */
function* copyText(rows: Iterable<readonly unknown[]>): Generator<string> {
  let chunk = '';
  let count = 0;
  for (const row of rows) {
    let line = copyTextValue(row[0]);
    for (let i = 1; i < row.length; i += 1) line += `\t${copyTextValue(row[i])}`;
    chunk += `${line}\n`;
    count += 1;
    if (count === ROWS_PER_CHUNK) {
      yield chunk;
      chunk = '';
      count = 0;
    }
  }
  if (count > 0) yield chunk;
}

/** Bulk loads through `COPY … FROM STDIN` on a connection of the pool. */
export interface PgCopier {
  /**
   * Copies the rows into the table in a transaction of its own: all of them or none (a unique or foreign-key
   * violation fails the whole COPY with the PostgreSQL error and its code). Answers how many were stored.
   */
  copyRows(table: string, columns: readonly string[], rows: Iterable<readonly unknown[]>): Promise<number>;
}

/** pg-copy-streams, imported by the first COPY (a server on SQLite never loads it). */
let copyStreams: Promise<typeof import('pg-copy-streams')> | undefined;

function createPgCopier(pool: PgPool): PgCopier {
  return {
    async copyRows(table, columns, rows) {
      copyStreams ??= import('pg-copy-streams');
      const { from: copyFrom } = await copyStreams;
      const client = await pool.connect();
      let broken: Error | undefined;
      // While checked out nobody else listens: a connection PostgreSQL ends mid-COPY fails the copy, not the process.
      const lost = (error: Error) => {
        broken = error;
      };
      client.on('error', lost);
      try {
        await client.query('begin');
        try {
          const copy = client.query(
            copyFrom(`copy "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) from stdin`),
          );
          await pipeline(Readable.from(copyText(rows)), copy);
          await client.query('commit');
          return copy.rowCount;
        } catch (error) {
          await client.query('rollback').catch((rollbackError: unknown) => {
            // A connection that cannot even roll back is not given back to the pool.
            broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          });
          // The COPY stream's own failure (a socket reset, the server's 57P01) comes from the database too.
          throw markPostgresError(error);
        }
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
  };
}

/**
 * The copier of a database opened by openDatabase on PostgreSQL, looked up by its Kysely instance: undefined for
 * SQLite and for a transaction (a COPY on another connection would not be part of it).
 */
const copiers = new WeakMap<object, PgCopier>();

export function registerPgCopier<T>(db: Kysely<T>, pool: PgPool): void {
  copiers.set(db, createPgCopier(pool));
}

export function pgCopierOf<T>(db: Kysely<T>): PgCopier | undefined {
  return copiers.get(db);
}
