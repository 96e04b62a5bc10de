import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * upload_sessions (user_id, state): every upload checks the user's quota of unfinished uploads
 * (upload-sessions.repository.ts unfinishedOf: user and state in issued/uploading/completed). Sessions are kept once
 * registered, so with the user's index alone that check read every upload a CI account ever made; this one reads
 * only the unfinished ones. It replaces upload_sessions_user_idx (user_id is its first column).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('upload_sessions_user_state_idx')
    .on('upload_sessions')
    .columns(['user_id', 'state'])
    .execute();
  await db.schema.dropIndex('upload_sessions_user_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('upload_sessions_user_idx').on('upload_sessions').column('user_id').execute();
  await db.schema.dropIndex('upload_sessions_user_state_idx').execute();
}
