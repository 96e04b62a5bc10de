import { z } from 'zod';
import { intFromQuery } from './common.ts';
import { nativePackageType } from './versions.ts';
import { removalBuild } from './version-removal.ts';

/** Retention of an app's builds (issue 20): editors of the app and admins. */
export const RETENTION_PATH = '/api/app_retention';
export const RETENTION_PREVIEW_PATH = '/api/app_retention/preview';
export const RETENTION_DEFAULT_PATH = '/api/system_setting/retention_default';
export const VERSION_PIN_PATH = '/api/app_version/pin';

export const RETENTION_LIMITS = {
  keepLast: { min: 1, max: 1000 },
  keepDays: { min: 0, max: 3650 },
  /** MB; 0: no quota. Up to 100 TB. */
  quotaMb: { min: 0, max: 100_000_000 },
} as const;

export const retentionRule = z.object({
  enabled: z.boolean(),
  /** Keep the newest N builds of each platform. */
  keepLast: z.number().int().min(RETENTION_LIMITS.keepLast.min).max(RETENTION_LIMITS.keepLast.max),
  /** Keep every build newer than D days (0: none kept for its age). */
  keepDays: z.number().int().min(RETENTION_LIMITS.keepDays.min).max(RETENTION_LIMITS.keepDays.max),
  /**
   * The app's space for packages, in MB (0: none). Over it, more builds go: expired-profile builds first, then the
   * oldest; never the newest of a platform, a 保留 one or one bound to a snapshot.
   */
  quotaMb: z.number().int().min(RETENTION_LIMITS.quotaMb.min).max(RETENTION_LIMITS.quotaMb.max).default(0),
});
export type RetentionRule = z.infer<typeof retentionRule>;

/** Until an admin sets one: off, 20 builds per platform, 30 days. */
export const DEFAULT_RETENTION_RULE: RetentionRule = { enabled: false, keepLast: 20, keepDays: 30, quotaMb: 0 };

export const appRetention = retentionRule.extend({
  /** True when the app has no rule of its own and follows the default for new apps. */
  isDefault: z.boolean(),
});
export type AppRetention = z.infer<typeof appRetention>;

export const appRetentionQuery = z.object({ appId: intFromQuery.min(1) });
export const saveRetentionBody = retentionRule.extend({ appId: z.number().int().min(1) });
export const retentionPreviewQuery = z.object({
  appId: intFromQuery.min(1),
  keepLast: intFromQuery.min(RETENTION_LIMITS.keepLast.min).max(RETENTION_LIMITS.keepLast.max),
  keepDays: intFromQuery.min(RETENTION_LIMITS.keepDays.min).max(RETENTION_LIMITS.keepDays.max),
  quotaMb: intFromQuery.min(RETENTION_LIMITS.quotaMb.min).max(RETENTION_LIMITS.quotaMb.max).default(0),
});

export const retentionPreview = z.object({
  /** The builds the rule would remove now, oldest first. */
  builds: z.array(
    removalBuild.extend({
      nativePackageType,
      appSize: z.number(),
      createTime: z.number(),
      /** rule: outside the last N and D days; quota: to bring the app under its space. */
      reason: z.enum(['rule', 'quota']),
      /** Its signing profile has expired (those go first over a quota). */
      expired: z.boolean(),
    }),
  ),
  /** Their packages' bytes (icons and attachments come on top, when nothing else names them). */
  freedBytes: z.number(),
  /** Builds of the app that stay. */
  kept: z.number(),
});
export type RetentionPreview = z.infer<typeof retentionPreview>;

export const pinVersionBody = z.object({
  id: z.number().int().min(1),
  appId: z.number().int().min(1),
  pinned: z.boolean(),
});

export const RetentionMessages = {
  scheduleTitle: '版本保留清理',
} as const;
