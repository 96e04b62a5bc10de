import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * apps.public_install: whether /package/<public_path> opens the install page without the install password
 * (an editor turns it on; off for every app until then).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('apps')
    .addColumn('public_install', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').dropColumn('public_install').execute();
}
