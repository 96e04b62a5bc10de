import { z } from 'zod';
import { APP_PATH_PATTERN } from './apps.ts';
import { idParam } from './common.ts';
import { appVersionRow, nativePackageType } from './versions.ts';

/** GET /api/app_versions/latest?path&platform: the newest version of one platform, for update prompts and CI. */
export const latestVersionQuery = z.object({
  path: z.string().trim().regex(APP_PATH_PATTERN, '下载地址只能包含字母、数字、-和_，最多32位'),
  platform: nativePackageType,
});
export type LatestVersionQuery = z.infer<typeof latestVersionQuery>;
/** null when the app has no version of that platform yet. */
export const latestVersionResult = appVersionRow.nullable();

/**
 * GET /api/app_versions/exists?appId&platform&appVersion&build: whether such a version was already
 * published, so CI can skip a duplicate upload. Without `build`, any build of that version matches.
 */
export const versionExistsQuery = z.object({
  appId: idParam,
  platform: nativePackageType,
  // Compared exactly as the inspector recorded them (`1.0.4 [BETA]` stays as is).
  appVersion: z.string().min(1).max(128),
  build: z.string().min(1).max(128).optional(),
});
export type VersionExistsQuery = z.infer<typeof versionExistsQuery>;
export const versionExistsResult = z.object({ exists: z.boolean(), appVersionId: z.number().optional() });
export type VersionExistsResult = z.infer<typeof versionExistsResult>;
