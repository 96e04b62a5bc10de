import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Every column that holds a value sealed with the server key (lib/secret-box.ts). A new sealed column must be
 * added here, or key rotation would leave it under the old key (test: sealed-secrets.test.ts finds every sealed
 * value in the database and checks that its column is listed).
 */
export const SEALED_COLUMNS = [
  { table: 'apps', column: 'password', what: 'install passwords' },
  { table: 'workflows', column: 'webhook_secret', what: 'workflow webhook and push secrets' },
  { table: 'workflows', column: 'robot_secret', what: 'Lark robot signing secrets' },
  { table: 'certificates', column: 'private_key_sealed', what: 'certificate private keys (.p12)' },
  { table: 'certificates', column: 'password_sealed', what: 'certificate .p12 passwords' },
  { table: 'apple_accounts', column: 'private_key_sealed', what: 'App Store Connect .p8 keys' },
  { table: 'harmony_certificates', column: 'private_key_sealed', what: 'HarmonyOS certificate private keys (.p12)' },
  { table: 'harmony_certificates', column: 'password_sealed', what: 'HarmonyOS certificate .p12 passwords' },
] as const;
export type SealedColumn = (typeof SEALED_COLUMNS)[number];

export interface SealedRow {
  id: number;
  value: string;
}

/** Reads and rewrites sealed values column by column, in pages by id (the tables have numeric ids). */
export function createSealedValuesRepository(db: Kysely<Database>) {
  // Table and column names come from SEALED_COLUMNS only, never from input.
  const ident = (name: string) => sql.id(name);
  return {
    async page(target: SealedColumn, afterId: number, limit: number): Promise<SealedRow[]> {
      const { rows } = await sql<{ id: number | string; value: string }>`
        select id, ${ident(target.column)} as value from ${ident(target.table)}
        where id > ${afterId} and ${ident(target.column)} is not null
        order by id limit ${limit}`.execute(db);
      return rows.map((r) => ({ id: Number(r.id), value: r.value }));
    },
    /** Replaces one value only if it is still the one read (a concurrent edit wins; the rotation reads it again). */
    async replace(target: SealedColumn, id: number, from: string, to: string): Promise<boolean> {
      const result =
        await sql`update ${ident(target.table)} set ${ident(target.column)} = ${to} where id = ${id} and ${ident(target.column)} = ${from}`.execute(
          db,
        );
      return Number(result.numAffectedRows ?? 0) === 1;
    },
    /** The newest values of a column, to check at start-up that the key opens what is stored. */
    async newest(target: SealedColumn, limit: number): Promise<string[]> {
      const { rows } = await sql<{ value: string }>`
        select ${ident(target.column)} as value from ${ident(target.table)}
        where ${ident(target.column)} is not null order by id desc limit ${limit}`.execute(db);
      return rows.map((r) => r.value);
    },
  };
}
export type SealedValuesRepository = ReturnType<typeof createSealedValuesRepository>;
