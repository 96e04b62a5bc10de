import type { Insertable, Kysely } from 'kysely';
import type { AppsTable, CommitLogsTable, Database, NotificationsTable } from '../../src/db/schema.ts';

// Rows the API cannot create yet (apps arrive with the next issue), written straight through Kysely.

const baseTime = Date.UTC(2026, 0, 1, 0, 0, 0);
let sequence = 0;

/** Inserts an app with unique paths and sensible defaults; returns its id. */
export async function insertApp(db: Kysely<Database>, overrides: Partial<Insertable<AppsTable>> = {}): Promise<number> {
  sequence += 1;
  const time = baseTime + sequence * 60_000;
  const row = await db
    .insertInto('apps')
    .values({
      app_name: `app-${sequence}`,
      app_type: 'unity',
      path: `path${sequence}`,
      public_path: `pub${sequence}`,
      password: '135790',
      description: '',
      create_time: time,
      update_time: time,
      ...overrides,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Gives a user the edit (developer) or view (download) permit on an app. */
export async function grantApp(
  db: Kysely<Database>,
  appId: number,
  userId: number,
  permit: 'edit' | 'view',
): Promise<void> {
  await db.insertInto('app_users').values({ app_id: appId, user_id: userId, permit }).execute();
}

/** Marks an app as a user's favourite (collect) or subscription. */
export async function collectApp(
  db: Kysely<Database>,
  appId: number,
  userId: number,
  type: 'collect' | 'subscribe',
): Promise<void> {
  await db
    .insertInto('app_collects')
    .values({ app_id: appId, user_id: userId, collect_type: type, create_time: baseTime })
    .execute();
}

/** Inserts a notice for a user about an app; returns its id. */
export async function insertNotification(
  db: Kysely<Database>,
  notice: {
    userId: number;
    appId: number;
    state?: NotificationsTable['state'];
    createTime?: number;
    description?: string;
  },
): Promise<number> {
  sequence += 1;
  const row = await db
    .insertInto('notifications')
    .values({
      user_id: notice.userId,
      app_id: notice.appId,
      state: notice.state ?? 'NOT_READ',
      message_info: JSON.stringify({
        username: 'uploader',
        appId: notice.appId,
        appName: `app ${notice.appId}`,
        description: notice.description ?? `notice ${sequence}`,
      }),
      create_time: notice.createTime ?? baseTime + sequence * 60_000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Inserts an update item (commit_logs row) of a workflow, as an ingest would store it; returns its id. */
export async function insertItem(
  db: Kysely<Database>,
  item: { appId: number; workflowId: number; commitId: string; message: string; time: number } & Partial<
    Insertable<CommitLogsTable>
  >,
): Promise<number> {
  const { appId, workflowId, commitId, message, time, ...overrides } = item;
  const row = await db
    .insertInto('commit_logs')
    .values({
      app_id: appId,
      workflow_id: workflowId,
      commit_id: commitId,
      commit_time: time,
      branch: null,
      tag_name: null,
      tag_summary: '[]',
      commit_message: message,
      description: '',
      file_urls: '[]',
      remark: '',
      author_email: null,
      source_url: null,
      app_version_id: null,
      metadata: null,
      is_filtered: 0,
      create_time: time,
      update_time: time,
      ...overrides,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
