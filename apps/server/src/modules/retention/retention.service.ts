import type { Kysely } from 'kysely';
import {
  DEFAULT_RETENTION_RULE,
  retentionRule,
  VersionRemovalMessages,
  type AppRetention,
  type RetentionPreview,
  type RetentionRule,
} from '@release/contract';
import { jsonColumn } from '../../db/json-column.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { SettingsDirectory } from '../settings/settings-directory.ts';
import type { VersionRemovalService } from '../versions/version-removal.service.ts';
import { buildsToRemove } from './retention-rule.ts';

const DEFAULT_KEY = 'retention_default';
/** The default rule as stored in settings; a damaged value reads as the built-in default (with one warning). */
const defaultRuleColumn = jsonColumn(`settings.${DEFAULT_KEY}`, retentionRule, {
  fallback: () => DEFAULT_RETENTION_RULE,
});

/**
 * Retention (issue 20): an app's rule, its dry run, the 保留 mark, the default for apps without a rule of their own,
 * and the scheduled run (版本保留清理) that removes what the enabled rules let go — through the same removal as
 * 删除 (tombstones now, files by the job).
 */
export function createRetentionService(deps: {
  db: Kysely<Database>;
  settings: SettingsDirectory;
  policy: AppsPolicy;
  removal: VersionRemovalService;
  clock: Clock;
  logger?: Logger;
}) {
  const { db } = deps;

  async function defaultRule(): Promise<RetentionRule> {
    const stored = await deps.settings.get(DEFAULT_KEY);
    return stored ? defaultRuleColumn.decode(stored) : DEFAULT_RETENTION_RULE;
  }

  async function ruleOf(appId: number): Promise<AppRetention> {
    const row = await db.selectFrom('app_retention_rules').selectAll().where('app_id', '=', appId).executeTakeFirst();
    if (!row) return { ...(await defaultRule()), isDefault: true };
    return {
      enabled: row.enabled === 1,
      keepLast: row.keep_last,
      keepDays: row.keep_days,
      quotaMb: Number(row.quota_mb),
      isDefault: false,
    };
  }

  /** The app's builds still there, with what the rule needs to know of each. */
  async function candidates(appId: number) {
    const rows = await db
      .selectFrom('app_versions as v')
      .select([
        'v.id',
        'v.native_package_type',
        'v.index_no',
        'v.create_time',
        'v.pinned',
        'v.app_size',
        'v.app_version',
        'v.build',
        'v.file_name',
        'v.expire_date',
      ])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('commit_log_versions as b')
              .select('b.app_version_id')
              .whereRef('b.app_version_id', '=', 'v.id'),
          )
          .as('bound'),
      )
      .where('v.app_id', '=', appId)
      .where('v.removed_time', 'is', null)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      nativePackageType: r.native_package_type,
      indexNo: r.index_no,
      appVersion: r.app_version,
      build: r.build,
      fileName: r.file_name,
      appSize: Number(r.app_size),
      createTime: Number(r.create_time),
      expireDate: r.expire_date === null ? null : Number(r.expire_date),
      pinned: r.pinned === 1,
      bound: Boolean(Number(r.bound)),
    }));
  }

  async function dryRun(
    appId: number,
    rule: Pick<RetentionRule, 'keepLast' | 'keepDays' | 'quotaMb'>,
  ): Promise<RetentionPreview> {
    const builds = await candidates(appId);
    const now = deps.clock.now();
    const leaving = buildsToRemove(builds, rule, now);
    return {
      builds: leaving.map((b) => ({
        id: b.id,
        indexNo: b.indexNo,
        appVersion: b.appVersion,
        build: b.build,
        fileName: b.fileName,
        nativePackageType: b.nativePackageType,
        appSize: b.appSize,
        createTime: b.createTime,
        reason: b.reason,
        expired: b.expireDate !== null && b.expireDate <= now,
      })),
      freedBytes: leaving.reduce((sum, b) => sum + b.appSize, 0),
      kept: builds.length - leaving.length,
    };
  }

  /** One app under its rule: removes what it lets go (nothing when it is off); answers how many. */
  async function applyTo(appId: number): Promise<number> {
    const rule = await ruleOf(appId);
    if (!rule.enabled) return 0;
    const { builds } = await dryRun(appId, rule);
    if (!builds.length) return 0;
    const removed = await deps.removal.removeBuilds(
      builds.map((b) => b.id),
      null,
    );
    return removed?.removedIds.length ?? 0;
  }

  return {
    async get(user: AuthUser, appId: number): Promise<AppRetention> {
      await deps.policy.assertCanView(user, appId);
      return ruleOf(appId);
    },

    async save(user: AuthUser, body: RetentionRule & { appId: number }): Promise<AppRetention> {
      await deps.policy.assertCanEdit(user, body.appId);
      const values = {
        enabled: body.enabled ? 1 : 0,
        keep_last: body.keepLast,
        keep_days: body.keepDays,
        quota_mb: body.quotaMb,
        update_by: user.userId,
        update_time: deps.clock.now(),
      };
      await db
        .insertInto('app_retention_rules')
        .values({ app_id: body.appId, ...values })
        .onConflict((oc) => oc.column('app_id').doUpdateSet(values))
        .execute();
      return ruleOf(body.appId);
    },

    async preview(user: AuthUser, query: { appId: number; keepLast: number; keepDays: number; quotaMb: number }) {
      await deps.policy.assertCanEdit(user, query.appId);
      return dryRun(query.appId, query);
    },

    async pin(user: AuthUser, body: { id: number; appId: number; pinned: boolean }): Promise<void> {
      await deps.policy.assertCanEdit(user, body.appId);
      const changed = await db
        .updateTable('app_versions')
        .set({ pinned: body.pinned ? 1 : 0 })
        .where('id', '=', body.id)
        .where('app_id', '=', body.appId)
        .where('removed_time', 'is', null)
        .executeTakeFirst();
      if (!Number(changed.numUpdatedRows)) throw AppError.notFound(VersionRemovalMessages.notFound);
    },

    getDefault: defaultRule,

    async setDefault(rule: RetentionRule): Promise<RetentionRule> {
      await deps.settings.set(DEFAULT_KEY, defaultRuleColumn.encode(rule), deps.clock.now());
      return rule;
    },

    applyTo,

    /** The schedule 版本保留清理: every app whose rule (its own, or the default) is on. */
    async applyAll(): Promise<{ apps: number; removed: number }> {
      const apps = await db.selectFrom('apps').select('id').orderBy('id').execute();
      let removed = 0;
      let touched = 0;
      for (const app of apps) {
        const count = await applyTo(Number(app.id));
        if (count) touched++;
        removed += count;
      }
      deps.logger?.info({ apps: touched, removed }, 'retention removed builds');
      return { apps: touched, removed };
    },
  };
}
export type RetentionService = ReturnType<typeof createRetentionService>;
