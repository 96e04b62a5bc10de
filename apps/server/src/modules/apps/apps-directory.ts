import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createAppMembersRepository } from './app-members.repository.ts';
import { createAppsPolicy } from './apps.policy.ts';
import { createAppsRepository } from './apps.repository.ts';

/**
 * What other modules may read and change of apps and their members (publish, install, versions, device-enroll,
 * commit-logs, uploads), and the per-app permit: built by apps, so no other module holds its repositories.
 */
export function createAppsDirectory(db: Kysely<Database>) {
  const apps = createAppsRepository(db);
  const members = createAppMembersRepository(db);
  return {
    apps: {
      findById: apps.findById,
      findByPath: apps.findByPath,
      /** Inside the caller's transaction (a new version touches its app). */
      update: apps.update,
      bundleIds: apps.bundleIds,
      replaceBundleIdsIf: apps.replaceBundleIdsIf,
    },
    members: {
      appsOfUser: members.appsOfUser,
      editsAnyApp: members.editsAnyApp,
      subscribers: members.subscribers,
      /** An app's members with their permits (feedback tells them of a new report). */
      listUsers: members.listUsers,
    },
    policy: createAppsPolicy(members),
  };
}
type AppsDirectory = ReturnType<typeof createAppsDirectory>;
/** The apps other modules may look up. */
export type AppsLookup = AppsDirectory['apps'];
/** The members other modules may ask about. */
export type MembersLookup = AppsDirectory['members'];
