import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createNotificationsRepository } from './notifications.repository.ts';

/** What publish may do with notifications (tell an app's subscribers of a new version): built by notifications. */
export function createNotificationsDirectory(db: Kysely<Database>) {
  const notifications = createNotificationsRepository(db);
  return { insertMany: notifications.insertMany };
}
export type NotificationsDirectory = ReturnType<typeof createNotificationsDirectory>;
