import { z } from 'zod';
import { intFromQuery } from './common.ts';

/**
 * GET /api/version_changes (issue 19): what changed between two builds of an app — the commits between their source
 * states in each repository workflow, the document and asset items of the time between them, and the snapshots bound
 * to the newer one. `baseVersionId` defaults to the previous build of the same platform.
 */
export const versionChangesQuery = z.object({
  versionId: intFromQuery.min(1),
  baseVersionId: intFromQuery.min(1).optional(),
  /**
   * Without baseVersionId: `previous` (default) compares with the previous build of the same platform, `last_install`
   * with the build of that platform the caller last downloaded or installed (when older; else the previous one).
   */
  base: z.enum(['previous', 'last_install']).optional(),
});
export type VersionChangesQuery = z.infer<typeof versionChangesQuery>;

/** At most this many entries per workflow are listed (newest first); `total` still counts them all. */
export const VERSION_CHANGES_MAX_ENTRIES = 200;

export const changedVersion = z.object({
  id: z.number(),
  indexNo: z.number(),
  nativePackageType: z.string(),
  appVersion: z.string().nullable(),
  build: z.string().nullable(),
  createTime: z.number(),
});
export type ChangedVersion = z.infer<typeof changedVersion>;

export const changeEntry = z.object({
  /** The update item (commit_logs id) when the workflow stored it; null for a commit of a branch it does not follow. */
  itemId: z.number().nullable(),
  commitId: z.string(),
  commitTime: z.number(),
  /** The first line of the message (the list's commit-type label is read from it). */
  message: z.string(),
  author: z.string(),
  branch: z.string().nullable(),
  tagName: z.string().nullable(),
});
export type ChangeEntry = z.infer<typeof changeEntry>;

export const sourceOrigins = ['upload', 'package', 'tag', 'branch'] as const;
export const sourceOriginLabels: Record<(typeof sourceOrigins)[number], string> = {
  upload: '上传时指定',
  package: '安装包内记录',
  tag: '按版本标签匹配',
  branch: '上传时分支的最新提交',
};

export const buildSource = z.object({
  commitId: z.string(),
  origin: z.enum(sourceOrigins),
  branch: z.string().nullable(),
});
export type BuildSource = z.infer<typeof buildSource>;

export const workflowChanges = z.object({
  workflowId: z.number(),
  tabName: z.string(),
  contentType: z.string(),
  repoType: z.string().nullable(),
  /**
   * commits: the real history between the two builds' source commits; time: the workflow's items published between
   * the two builds (documents, assets, or a repository whose builds have no recorded source).
   */
  basis: z.enum(['commits', 'time']),
  from: buildSource.nullable(),
  to: buildSource.nullable(),
  /** All changes (entries holds the newest VERSION_CHANGES_MAX_ENTRIES). */
  total: z.number(),
  /** Commits of the older build missing from the newer one: > 0 when their histories diverged. */
  behind: z.number(),
  entries: z.array(changeEntry),
});
export type WorkflowChanges = z.infer<typeof workflowChanges>;

export const versionChanges = z.object({
  version: changedVersion,
  /** null for the first build of its platform. */
  base: changedVersion.nullable(),
  /** Which build `base` is: the previous of the platform, the caller's last install, or the baseVersionId asked for. */
  baseKind: z.enum(['previous', 'last_install', 'chosen']),
  /** The build of this platform the caller last downloaded or installed, when older than this one (else null). */
  lastInstall: changedVersion.nullable(),
  /** This build's own source per repository workflow. */
  sources: z.array(buildSource.extend({ workflowId: z.number(), tabName: z.string(), resolved: z.boolean() })),
  workflows: z.array(workflowChanges),
  /** Snapshots (update items) bound to this build by hand. */
  snapshots: z.array(changeEntry.extend({ tabName: z.string() })),
});
export type VersionChanges = z.infer<typeof versionChanges>;

/** Per workflow, the install page and the pushes list at most this many changes (the console lists them all). */
export const SHORT_CHANGES_MAX_ENTRIES = 10;

/** What changed in a build, cut for the install page and the pushes: groups by workflow, each with its newest entries. */
export const shortChanges = z.object({
  /** The build compared with: "1.5.0 (310)", or "第 3 版" for a build without a version. */
  since: z.string(),
  /** Compared with the build the visitor last downloaded (自上次安装以来的变化), not the one before (本版本更新). */
  sinceInstalled: z.boolean().optional(),
  groups: z.array(
    z.object({
      tabName: z.string(),
      /** All its changes; `entries` holds the newest SHORT_CHANGES_MAX_ENTRIES. */
      total: z.number(),
      entries: z.array(z.object({ message: z.string(), author: z.string() })),
    }),
  ),
});
export type ShortChanges = z.infer<typeof shortChanges>;

/** "1.5.0 (310)", "1.5.0", or "第 N 版": how a build is named in a sentence. */
export function changedVersionLabel(v: Pick<ChangedVersion, 'appVersion' | 'build' | 'indexNo'>): string {
  if (!v.appVersion && !v.build) return `第 ${v.indexNo} 版`;
  return [v.appVersion ?? '', v.build && v.build !== v.appVersion ? `(${v.build})` : ''].filter(Boolean).join(' ');
}

/** The changes of a build cut for a small screen or a message; null when there is nothing to say. */
export function shortenChanges(
  changes: VersionChanges,
  maxEntries = SHORT_CHANGES_MAX_ENTRIES,
  options: { sinceInstalled?: boolean } = {},
): ShortChanges | null {
  if (!changes.base) return null;
  const groups = changes.workflows
    .filter((w) => w.total > 0)
    .map((w) => ({
      tabName: w.tabName,
      total: w.total,
      entries: w.entries.slice(0, maxEntries).map((e) => ({ message: e.message, author: e.author })),
    }));
  if (changes.snapshots.length > 0)
    groups.push({
      tabName: '绑定的快照',
      total: changes.snapshots.length,
      entries: changes.snapshots.slice(0, maxEntries).map((e) => ({ message: e.message, author: e.tabName })),
    });
  if (groups.length === 0) return null;
  const since = changedVersionLabel(changes.base);
  return options.sinceInstalled ? { since, sinceInstalled: true, groups } : { since, groups };
}
