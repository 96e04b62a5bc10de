import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

export async function up(db: Kysely<any>): Promise<void> {
  // Whether an admin accepted the device: confirmed (added by an admin, synced from Apple, or a signed-in
  // user's own), pending (collected from an install page visitor) or rejected. Only confirmed ones go to Apple.
  await db.schema
    .alterTable('devices')
    .addColumn('review_status', 'varchar(16)', (c) => c.notNull().defaultTo('confirmed'))
    .execute();
  // Install page registrations made before the review existed said so in their remark.
  await sql`update devices set review_status = 'pending' where remark like ${'%待管理员确认'}`.execute(db);
  await db.schema.createIndex('devices_review_status_idx').on('devices').column('review_status').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('devices_review_status_idx').execute();
  await db.schema.alterTable('devices').dropColumn('review_status').execute();
}
