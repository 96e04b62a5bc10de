import {
  AppMessages,
  type AppVersionRow,
  type LatestVersionQuery,
  type VersionExistsQuery,
  type VersionExistsResult,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AppsLookup } from '../apps/apps-directory.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { Links } from '../../http/links.ts';
import { versionRow } from './version-row.ts';
import type { VersionsRepository } from './versions.repository.ts';

/** Lookups for in-app update prompts and CI: the latest version of a platform, and "was this published already". */
export function createVersionLookupService(deps: {
  apps: AppsLookup;
  versions: VersionsRepository;
  policy: AppsPolicy;
}) {
  const { apps, versions, policy } = deps;
  return {
    async latest(viewer: AuthUser, query: LatestVersionQuery, present: Links): Promise<AppVersionRow | null> {
      const app = await apps.findByPath(query.path);
      if (!app) throw AppError.notFound(AppMessages.appNotFound);
      await policy.assertCanView(viewer, app.id);
      const row = await versions.latestOf(app.id, query.platform);
      return row ? versionRow(present, row) : null;
    },

    async exists(viewer: AuthUser, query: VersionExistsQuery): Promise<VersionExistsResult> {
      await policy.assertCanView(viewer, query.appId);
      const row = await versions.findPublished(query.appId, query.platform, query.appVersion, query.build);
      return row ? { exists: true, appVersionId: row.id } : { exists: false };
    },
  };
}
export type VersionLookupService = ReturnType<typeof createVersionLookupService>;
