import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

export async function up(db: Kysely<any>): Promise<void> {
  // A task or bug whose Lark item was deleted there: 'removed' (left the list, row and history kept) or 'kept'
  // (it had a local edit not yet in Lark: stays visible, unlinked, no longer synced). Null while in step.
  await db.schema.alterTable('task_records').addColumn('lark_deleted', 'varchar(16)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task_records').dropColumn('lark_deleted').execute();
}
