import { z } from 'zod';
import { intFromQuery } from './common.ts';

/** Install statistics (issue 20): downloads and OTA installs, counted once per device per UTC day. */
export const INSTALL_STATS_DAYS = 30;
/** The install page's device id (an HttpOnly cookie the server sets): names an anonymous tester's device in the counts. */
export const INSTALL_DEVICE_COOKIE = 'rs_device';

export const installStatsQuery = z.object({
  appId: intFromQuery.min(1),
  days: intFromQuery.min(1).max(366).optional(),
});
export const versionCounts = z.object({ versionId: z.number(), downloads: z.number(), installs: z.number() });
export type VersionCounts = z.infer<typeof versionCounts>;
export const installStats = z.object({
  appId: z.number(),
  /** Each day of the window, oldest first (days without any count included, as 0). */
  daily: z.array(z.object({ day: z.string(), downloads: z.number(), installs: z.number() })),
  versions: z.array(versionCounts),
});
export type InstallStats = z.infer<typeof installStats>;
export const versionHoldersQuery = z.object({ versionId: intFromQuery.min(1) });
export const versionHolders = z.object({
  versionId: z.number(),
  /**
   * Signed-in users who downloaded or installed it, one line per user and device kind (family and OS), the latest
   * first; anonymous testers are counted, never named.
   */
  users: z.array(
    z.object({
      userId: z.number(),
      username: z.string(),
      family: z.string(),
      os: z.string().nullable(),
      lastTime: z.number(),
    }),
  ),
  devices: z.array(z.object({ family: z.string(), os: z.string().nullable(), count: z.number() })),
});
export type VersionHolders = z.infer<typeof versionHolders>;
