import {
  VERSION_CHANGES_MAX_ENTRIES,
  type NativePackageType,
  type VersionChangesQuery,
  type BuildSource,
  type ChangedVersion,
  type ChangeEntry,
  type VersionChanges,
  type WorkflowChanges,
} from '@release/contract';
import { commitsBetween } from '../../integrations/git/git-range.ts';
import { mirrorDirFor } from '../../integrations/git/remote-url.ts';
import type { CommitLogsDirectory } from '../commit-logs/commit-logs-directory.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import { comparedPair } from '../versions/version-pair.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';
import type { WorkflowsDirectory } from '../workflows/workflows-directory.ts';
import type { VersionSourceRecord, VersionSourcesRepository } from './version-sources.repository.ts';

const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

function changedVersion(v: VersionRecord): ChangedVersion {
  return {
    id: v.id,
    indexNo: v.index_no,
    nativePackageType: v.native_package_type,
    appVersion: v.app_version,
    build: v.build,
    createTime: v.create_time,
  };
}

function buildSource(row: VersionSourceRecord | undefined): BuildSource | null {
  return row && row.resolved === 1 ? { commitId: row.commit_id, origin: row.origin, branch: row.branch } : null;
}

interface ItemRow {
  id: number;
  commit_id: string;
  commit_time: number;
  commit_message: string;
  remark: string;
  branch: string | null;
  tag_name: string | null;
}
const itemEntry = (row: ItemRow): ChangeEntry => ({
  itemId: row.id,
  commitId: row.commit_id,
  commitTime: row.commit_time,
  message: firstLine(row.commit_message),
  author: row.remark,
  branch: row.branch,
  tagName: row.tag_name,
});

/**
 * What changed between two builds of an app (issue 19), per workflow in the app's order: for a repository whose two
 * builds both have a recorded source, the commits between them by real ancestry in its mirror; for documents,
 * assets and pushed items — and a repository without recorded sources — the items published between the two builds;
 * package workflows are the builds themselves and are left out. Then the snapshots bound to the newer build.
 */
/** Who asks: the signed-in user, and the install page's device id (its cookie) when the request carries one. */
export interface ChangesViewer {
  userId: number | null;
  device: string | null;
}

export function createVersionChangesService(deps: {
  versions: Pick<VersionsDirectory, 'findById' | 'previousOf'>;
  workflows: Pick<WorkflowsDirectory, 'listByApp'>;
  logs: Pick<CommitLogsDirectory, 'byCommits' | 'boundTo' | 'inWindow' | 'findByCommit'>;
  sources: Pick<VersionSourcesRepository, 'ofVersions'>;
  mirrorsDir: string;
  /** The build of a platform the viewer last downloaded or installed (install statistics), or null. */
  lastTaken: (appId: number, platform: NativePackageType, who: ChangesViewer) => Promise<number | null>;
}) {
  const { versions, logs } = deps;
  const limit = VERSION_CHANGES_MAX_ENTRIES;

  async function gitCommits(workflow: WorkflowRecord, from: string, to: string) {
    const range = await commitsBetween(mirrorDirFor(deps.mirrorsDir, workflow.repo_path ?? ''), from, to, limit);
    const stored = new Map(
      (
        await logs.byCommits(
          workflow.id,
          range.commits.map((c) => c.commitId),
        )
      ).map((r) => [r.commit_id, r]),
    );
    const entries = range.commits.map((c): ChangeEntry => {
      const item = stored.get(c.commitId);
      return {
        itemId: item?.id ?? null,
        commitId: c.commitId,
        commitTime: c.commitTime,
        message: c.subject,
        author: item?.remark || c.authorName,
        branch: item?.branch ?? null,
        tagName: item?.tag_name ?? null,
      };
    });
    return { total: range.total, behind: range.behind, entries };
  }

  /** An svn workflow's items after one revision up to another (their commit times bound the window). */
  async function svnCommits(workflow: WorkflowRecord, from: string, to: string) {
    const [a, b] = await Promise.all([logs.findByCommit(workflow.id, from), logs.findByCommit(workflow.id, to)]);
    if (!a || !b) return null;
    const window = await logs.inWindow(workflow.id, a.commit_time, b.commit_time, limit);
    return { total: window.total, behind: 0, entries: window.rows.map(itemEntry) };
  }

  async function workflowChanges(
    workflow: WorkflowRecord,
    version: VersionRecord,
    base: VersionRecord,
    sources: VersionSourceRecord[],
  ): Promise<WorkflowChanges> {
    const of = (v: VersionRecord) => sources.find((s) => s.app_version_id === v.id && s.workflow_id === workflow.id);
    const from = buildSource(of(base));
    const to = buildSource(of(version));
    const head = {
      workflowId: workflow.id,
      tabName: workflow.tab_name,
      contentType: workflow.content_type,
      repoType: workflow.repo_type,
      from,
      to,
    };
    if (from && to) {
      const found =
        workflow.repo_type === 'svn'
          ? await svnCommits(workflow, from.commitId, to.commitId)
          : await gitCommits(workflow, from.commitId, to.commitId).catch(() => null);
      if (found) return { ...head, basis: 'commits', ...found };
    }
    const window = await logs.inWindow(workflow.id, base.create_time, version.create_time, limit);
    return { ...head, basis: 'time', total: window.total, behind: 0, entries: window.rows.map(itemEntry) };
  }

  /** The build of `version`'s platform the viewer last took, when it is an older build of the same app. */
  async function lastInstallOf(version: VersionRecord, who: ChangesViewer): Promise<VersionRecord | undefined> {
    const taken = await deps.lastTaken(version.app_id, version.native_package_type, who);
    const base = taken && taken !== version.id ? await versions.findById(taken) : undefined;
    return base && base.app_id === version.app_id && base.index_no < version.index_no ? base : undefined;
  }

  async function compare(
    version: VersionRecord,
    base: VersionRecord | null,
    kind: Pick<VersionChanges, 'baseKind' | 'lastInstall'>,
  ): Promise<VersionChanges & { appId: number }> {
    // Independent reads at once: on PostgreSQL each is a round trip.
    const [flows, sources, snapshots] = await Promise.all([
      deps.workflows.listByApp(version.app_id),
      deps.sources.ofVersions(base ? [version.id, base.id] : [version.id]),
      logs.boundTo(version.id, limit),
    ]);
    const own = sources.filter((s) => s.app_version_id === version.id);
    // Compared the other way round (an older build against a newer one), the newer one is the base's "after".
    const [older, newer] = base && base.create_time > version.create_time ? [version, base] : [base, version];
    const workflows =
      older && newer
        ? await Promise.all(
            flows.filter((w) => w.content_type !== 'package').map((w) => workflowChanges(w, newer, older, sources)),
          )
        : [];
    return {
      appId: version.app_id,
      version: changedVersion(version),
      base: base ? changedVersion(base) : null,
      ...kind,
      sources: own.map((s) => ({
        workflowId: s.workflow_id,
        tabName: flows.find((w) => w.id === s.workflow_id)?.tab_name ?? '',
        commitId: s.commit_id,
        origin: s.origin,
        branch: s.branch,
        resolved: s.resolved === 1,
      })),
      workflows: workflows.filter((w) => w.total > 0 || w.basis === 'commits'),
      snapshots: snapshots.map((row) => ({ ...itemEntry(row), tabName: row.tab_name })),
    };
  }

  return {
    lastInstallOf,

    /** The changes of `versionId` since `baseVersionId` (default: the previous build of its platform). Access is the caller's. */
    async between(
      versionId: number,
      baseVersionId: number | undefined,
      /** Checks the caller may view the version's app, before anything else is read (or git is run). */
      authorize: (appId: number) => Promise<unknown>,
    ): Promise<VersionChanges & { appId: number }> {
      const { version, base } = await comparedPair(versions, versionId, baseVersionId, authorize);
      return compare(version, base, { baseKind: baseVersionId ? 'chosen' : 'previous', lastInstall: null });
    },

    /**
     * GET /api/version_changes: as `between`, and the viewer's last install of the platform — named in the answer, and
     * the base when `base=last_install` asks for it (the previous build when the viewer has none older).
     */
    async forViewer(
      query: VersionChangesQuery,
      who: ChangesViewer,
      authorize: (appId: number) => Promise<unknown>,
    ): Promise<VersionChanges & { appId: number }> {
      const pair = await comparedPair(versions, query.versionId, query.baseVersionId, authorize);
      const last = await lastInstallOf(pair.version, who);
      const lastInstall = last ? changedVersion(last) : null;
      if (query.baseVersionId) return compare(pair.version, pair.base, { baseKind: 'chosen', lastInstall });
      if (query.base === 'last_install' && last)
        return compare(pair.version, last, { baseKind: 'last_install', lastInstall });
      return compare(pair.version, pair.base, { baseKind: 'previous', lastInstall });
    },
  };
}
export type VersionChangesService = ReturnType<typeof createVersionChangesService>;
