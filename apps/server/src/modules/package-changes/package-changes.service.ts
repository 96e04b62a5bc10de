import type { Kysely } from 'kysely';
import {
  crossedThresholds,
  DEFAULT_PACKAGE_THRESHOLDS,
  diffPackageFacts,
  type NativePackageType,
  type PackageChanges,
  type PackageFacts,
  type PackageThresholds,
} from '@release/contract';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import { comparedPair } from '../versions/version-pair.ts';

const changedVersion = (v: VersionRecord) => ({
  id: v.id,
  indexNo: v.index_no,
  nativePackageType: v.native_package_type,
  appVersion: v.app_version,
  build: v.build,
  createTime: v.create_time,
});

/** The facts stored with a version (decoded by versionColumns.metadata); null for a build published before them. */
const factsOf = (v: VersionRecord | undefined | null): PackageFacts | null => v?.metadata.facts ?? null;

/**
 * How the package itself changed (issue 19): the diff of two builds' stored facts, the app's thresholds, and the
 * marks a new build gets when it crosses one. Never re-reads a package.
 */
export function createPackageChangesService(deps: {
  db: Kysely<Database>;
  versions: Pick<VersionsDirectory, 'findById' | 'previousOf'>;
  policy: AppsPolicy;
  clock: Clock;
}) {
  const { db, versions } = deps;

  async function thresholdsOf(appId: number): Promise<PackageThresholds> {
    const row = await db
      .selectFrom('app_package_thresholds')
      .selectAll()
      .where('app_id', '=', appId)
      .executeTakeFirst();
    if (!row) return DEFAULT_PACKAGE_THRESHOLDS;
    return {
      sizePercent: row.size_percent === null ? null : Number(row.size_percent),
      sizeMb: row.size_mb === null ? null : Number(row.size_mb),
      dangerousPermission: Number(row.dangerous_permission) === 1,
      certificate: Number(row.certificate) === 1,
      minOsRaised: Number(row.min_os_raised) === 1,
    };
  }

  return {
    thresholdsOf,

    async getThresholds(user: AuthUser, appId: number): Promise<PackageThresholds> {
      await deps.policy.assertCanView(user, appId);
      return thresholdsOf(appId);
    },

    async saveThresholds(user: AuthUser, body: PackageThresholds & { appId: number }): Promise<PackageThresholds> {
      await deps.policy.assertCanEdit(user, body.appId);
      const values = {
        size_percent: body.sizePercent,
        size_mb: body.sizeMb,
        dangerous_permission: body.dangerousPermission ? 1 : 0,
        certificate: body.certificate ? 1 : 0,
        min_os_raised: body.minOsRaised ? 1 : 0,
        update_by: user.userId,
        update_time: deps.clock.now(),
      };
      await db
        .insertInto('app_package_thresholds')
        .values({ app_id: body.appId, ...values })
        .onConflict((oc) => oc.column('app_id').doUpdateSet(values))
        .execute();
      return thresholdsOf(body.appId);
    },

    /**
     * What a new build of `appId` crosses against the newest build of its platform before it: the marks stored with
     * it. [] without thresholds, a previous build, or facts on either side.
     */
    async alertsFor(appId: number, platform: NativePackageType, facts: PackageFacts | undefined): Promise<string[]> {
      if (!facts) return [];
      const thresholds = await thresholdsOf(appId);
      const previous = await versions.previousOf({
        app_id: appId,
        native_package_type: platform,
        // Every stored build comes before it (index_no is an int4 on PostgreSQL).
        index_no: 2_147_483_647,
      });
      const before = factsOf(previous);
      return before ? crossedThresholds(diffPackageFacts(before, facts), thresholds) : [];
    },

    /** `versionId` against `baseVersionId` (default: the previous build of its platform). Access is the caller's. */
    async between(
      versionId: number,
      baseVersionId: number | undefined,
      /** Checks the caller may view the version's app, before anything else is read (or git is run). */
      authorize: (appId: number) => Promise<unknown>,
    ): Promise<PackageChanges & { appId: number }> {
      const { version, base } = await comparedPair(versions, versionId, baseVersionId, authorize);
      const facts = factsOf(version);
      const baseFacts = factsOf(base);
      // Compared the other way round (an older build against a newer one), the diff still reads older → newer.
      const reversed = base !== undefined && base !== null && base.create_time > version.create_time;
      const diff =
        facts && baseFacts
          ? reversed
            ? diffPackageFacts(facts, baseFacts)
            : diffPackageFacts(baseFacts, facts)
          : null;
      return {
        appId: version.app_id,
        version: changedVersion(version),
        base: base ? changedVersion(base) : null,
        versionHasFacts: facts !== null,
        baseHasFacts: baseFacts !== null,
        facts,
        diff,
        crossed: diff ? crossedThresholds(diff, await thresholdsOf(version.app_id)) : [],
        alerts: version.metadata.packageAlerts ?? [],
      };
    },
  };
}
export type PackageChangesService = ReturnType<typeof createPackageChangesService>;
