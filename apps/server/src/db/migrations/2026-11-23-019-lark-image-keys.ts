import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

export async function up(db: Kysely<any>): Promise<void> {
  // Lark card images need an image_key: one upload per (Lark app, image content), kept for every later card.
  await db.schema
    .createTable('lark_image_keys')
    .addColumn('lark_app_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('content_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('image_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('lark_image_keys_pk', ['lark_app_id', 'content_sha256'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lark_image_keys').execute();
}
