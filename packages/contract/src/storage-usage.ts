import { z } from 'zod';
import { nativePackageType } from './versions.ts';

/** The storage page (issue 20): admins only. */
export const STORAGE_USAGE_PATH = '/api/storage/usage';
export const STORAGE_ORPHANS_CHECK_PATH = '/api/storage/orphans/check';
export const STORAGE_ORPHANS_REMOVE_PATH = '/api/storage/orphans/remove';

/** How many builds 最大的安装包 lists, and how many weeks 每周增长 covers. */
export const STORAGE_LARGEST_BUILDS = 10;
export const STORAGE_WEEKS = 12;
/** At most this many orphaned files are listed (and removed) at once; the count covers all of them. */
export const STORAGE_ORPHANS_LISTED = 500;

const platformUsage = z.object({ nativePackageType, bytes: z.number(), builds: z.number() });

export const storageUsage = z.object({
  /** Where the files are: local disk or S3. */
  store: z.enum(['local', 's3']),
  /** The packages of the builds still there. */
  totalBytes: z.number(),
  builds: z.number(),
  platforms: z.array(platformUsage),
  apps: z.array(
    z.object({
      appId: z.number(),
      appName: z.string(),
      bytes: z.number(),
      builds: z.number(),
      platforms: z.array(platformUsage),
    }),
  ),
  largest: z.array(
    z.object({
      id: z.number(),
      appId: z.number(),
      appName: z.string(),
      indexNo: z.number(),
      appVersion: z.string().nullable(),
      build: z.string().nullable(),
      fileName: z.string(),
      nativePackageType,
      appSize: z.number(),
      createTime: z.number(),
      pinned: z.boolean(),
    }),
  ),
  /** Oldest week first; each week starts on Monday 00:00 UTC. */
  weeks: z.array(
    z.object({ weekStart: z.number(), addedBytes: z.number(), removedBytes: z.number(), builds: z.number() }),
  ),
});
export type StorageUsage = z.infer<typeof storageUsage>;

export const orphanCheck = z.object({
  /** Objects read from the store. */
  scanned: z.number(),
  /** Orphaned files found (all of them) and their bytes. */
  count: z.number(),
  bytes: z.number(),
  /** The first STORAGE_ORPHANS_LISTED of them. */
  files: z.array(z.object({ key: z.string(), size: z.number() })),
});
export type OrphanCheck = z.infer<typeof orphanCheck>;

export const removeOrphansBody = z.object({
  keys: z
    .array(z.string().regex(/^(?!.*\.\.)[A-Za-z0-9._\-/]{1,512}$/, '文件名不正确'))
    .min(1)
    .max(STORAGE_ORPHANS_LISTED),
});
export const orphansRemoved = z.object({
  removed: z.number(),
  bytes: z.number(),
  /** Keys left because something names them now (or the store no longer has them). */
  skipped: z.number(),
});
export type OrphansRemoved = z.infer<typeof orphansRemoved>;
