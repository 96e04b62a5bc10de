import { z } from 'zod';
import { intFromQuery } from './common.ts';

/** Removing a build (issue 20): what the confirm lists, and the removal itself. Editors of the app and admins. */
export const VERSION_REMOVAL_PREVIEW_PATH = '/api/app_version/remove_preview';
export const VERSION_REMOVE_PATH = '/api/app_version/remove';

export const versionRemovalQuery = z.object({ id: intFromQuery.min(1), appId: intFromQuery.min(1) });
export type VersionRemovalQuery = z.infer<typeof versionRemovalQuery>;

export const removedFileKinds = ['package', 'icon', 'attachment'] as const;
export type RemovedFileKind = (typeof removedFileKinds)[number];

export const removalFile = z.object({
  kind: z.enum(removedFileKinds),
  /** The file's own name (package, attachment) or what it is (图标). */
  name: z.string(),
  /** The build it belongs to (the version itself or one of its re-signed copies). */
  versionId: z.number(),
  size: z.number(),
  /** Why the file stays although the build goes (another record still names it); null: it is deleted. */
  keptBecause: z.string().nullable(),
});
export type RemovalFile = z.infer<typeof removalFile>;

export const removalBuild = z.object({
  id: z.number(),
  indexNo: z.number(),
  appVersion: z.string().nullable(),
  build: z.string().nullable(),
  fileName: z.string(),
});
export type RemovalBuild = z.infer<typeof removalBuild>;

export const versionRemovalPreview = z.object({
  version: removalBuild,
  /** Builds re-signed from it (and from those): they go with it. */
  copies: z.array(removalBuild),
  files: z.array(removalFile),
  /** The bytes the store gets back: the files deleted, not the kept ones. */
  freedBytes: z.number(),
  /** Workflow items and snapshots that name it: they stay and show it as 已删除. */
  items: z.number(),
});
export type VersionRemovalPreview = z.infer<typeof versionRemovalPreview>;

export const versionRemovalResult = z.object({
  /** The version and its re-signed copies, now gone from every list. */
  removedIds: z.array(z.number()),
  /** The background job that deletes their files. */
  jobId: z.number(),
});
export type VersionRemovalResult = z.infer<typeof versionRemovalResult>;

export const VersionRemovalMessages = {
  notFound: '版本不存在',
  alreadyRemoved: '该版本已删除',
  resigning: '该版本正在重签名，请等重签名结束后再删除',
  keptByVersion: '其他版本仍在使用',
  keptByAppIcon: '应用图标仍在使用',
  keptBySnapshot: '快照仍在使用',
  icon: '图标',
} as const;
