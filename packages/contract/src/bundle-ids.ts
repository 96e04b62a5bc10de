import { z } from 'zod';
import { bundleIdLabels, bundleIdPlatforms, type BundleIdPlatform } from './package-kinds.ts';

export { bundleIdLabels, bundleIdPlatforms, type BundleIdPlatform };

/**
 * The ids an app's packages must carry, per platform: the iOS bundle id, the Android package name, the mac
 * bundle id (web packages have none). The first build of a platform sets its first id; admins may list more
 * (flavors) in the app's settings. A build with another id is refused unless the uploader confirms it.
 */

/** Most allowed ids per platform. */
export const BUNDLE_IDS_MAX = 20;
/** Reverse-DNS names as Apple and Android write them (letters, digits, `.`, `-`, `_`). */
export const BUNDLE_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;

/** The ids as answered (GET /api/app) and stored. */
export const appBundleIds = z.object(
  Object.fromEntries(bundleIdPlatforms.map((platform) => [platform, z.array(z.string())])) as Record<
    BundleIdPlatform,
    z.ZodArray<z.ZodString>
  >,
);
export type AppBundleIds = z.infer<typeof appBundleIds>;

const bundleIdList = z
  .array(z.string().trim().regex(BUNDLE_ID_PATTERN, '包名只能包含字母、数字、点、-和_，最多255位'))
  .max(BUNDLE_IDS_MAX, `每个平台最多 ${BUNDLE_IDS_MAX} 个包名`)
  .default([])
  // The order is kept (the first is the one shown); repeats are dropped.
  .transform((list) => [...new Set(list)]);

/** The ids as the app settings send them (POST /api/app): checked, trimmed, without repeats. */
export const appBundleIdsInput = z.object(
  Object.fromEntries(bundleIdPlatforms.map((platform) => [platform, bundleIdList])) as Record<
    BundleIdPlatform,
    typeof bundleIdList
  >,
);

export function emptyBundleIds(): AppBundleIds {
  return Object.fromEntries(bundleIdPlatforms.map((platform) => [platform, []])) as unknown as AppBundleIds;
}

/** The stored JSON text of an app's ids, read leniently: anything unreadable counts as no id yet. */
export function parseBundleIds(text: string | null | undefined): AppBundleIds {
  let json: unknown = null;
  try {
    json = JSON.parse(text ?? '{}');
  } catch {
    // Treated as empty below.
  }
  const parsed = appBundleIdsInput.safeParse(json);
  return parsed.success ? parsed.data : emptyBundleIds();
}

/** The app's main id: the first iOS one, else Android, else mac, else HarmonyOS (SPEC §3 App.bundleId; the table's order). */
export function mainBundleId(ids: AppBundleIds): string | null {
  for (const platform of bundleIdPlatforms) {
    const first = ids[platform][0];
    if (first) return first;
  }
  return null;
}

/** What a refused upload answers in `data`, so the web and the CLI can offer to publish it anyway. */
export const bundleIdMismatch = z.object({
  reason: z.literal('bundleIdMismatch'),
  platform: z.enum(bundleIdPlatforms),
  allowed: z.array(z.string()),
  bundleId: z.string(),
});
export type BundleIdMismatch = z.infer<typeof bundleIdMismatch>;

export const BundleIdMessages = {
  /** 包名不一致：该应用的 Android 包名为 com.a，此安装包为 com.b */
  mismatch: (platform: BundleIdPlatform, allowed: string[], actual: string) => {
    const label = bundleIdLabels[platform];
    // "Android 包名为", but "iOS Bundle ID 为": a space between a Latin word and a Chinese one.
    const joiner = /[A-Za-z]$/.test(label) ? ' 为 ' : '为 ';
    return `包名不一致：该应用的 ${label}${joiner}${allowed.join('、')}，此安装包为 ${actual}`;
  },
} as const;

/** True when a failure's envelope data says the package's id is not one of the app's. */
export function isBundleIdMismatch(data: unknown): data is BundleIdMismatch {
  return bundleIdMismatch.safeParse(data).success;
}
