import { groupByBound, type AppVersionListQuery, type AppVersionRow } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { Links } from '../../http/links.ts';
import { versionRow } from './version-row.ts';
import type { VersionsRepository } from './versions.repository.ts';

export function createVersionsService(deps: { versions: VersionsRepository; policy: AppsPolicy; clock: Clock }) {
  const { versions, policy, clock } = deps;
  return {
    async list(
      viewer: AuthUser,
      query: AppVersionListQuery,
      present: Links,
    ): Promise<{ rows: AppVersionRow[]; total: number }> {
      await policy.assertCanView(viewer, query.appId);
      const { rows, total } = await versions.list(query);
      return { rows: await Promise.all(rows.map((r) => versionRow(present, r))), total };
    },

    async editNote(editor: AuthUser, body: { id: number; appId: number; description: string }) {
      await policy.assertCanEdit(editor, body.appId);
      const version = await versions.findById(body.id);
      if (!version || version.app_id !== body.appId) throw AppError.notFound('版本不存在');
      await versions.update(body.id, { description: body.description, update_time: clock.now() });
    },

    /** SPEC §7 `app_versions/simple`: the ipa, apk, zip (and HarmonyOS hap) versions of an app, for version pickers. */
    async simple(viewer: AuthUser, appId: number) {
      await policy.assertCanView(viewer, appId);
      const rows = await versions.simple(appId);
      return groupByBound(
        rows,
        (r) => r.native_package_type,
        (r) => ({ appVersionId: r.id, indexNo: r.index_no, appVersion: r.app_version, build: r.build }),
      );
    },
  };
}
export type VersionsService = ReturnType<typeof createVersionsService>;
