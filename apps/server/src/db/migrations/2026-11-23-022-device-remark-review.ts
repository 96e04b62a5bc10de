import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

const SUFFIX = '，待管理员确认';

export async function up(db: Kysely<any>): Promise<void> {
  // 021 moved install page registrations to review_status pending but left the old wording in their remark
  // (安装页自助注册（应用），待管理员确认): the status column says it now, so the remark keeps only where it came from.
  await sql`update devices set remark = substr(remark, 1, length(remark) - ${SUFFIX.length}) where remark like ${`%${SUFFIX}`}`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  // The stripped wording is not put back: review_status holds what it said.
}
