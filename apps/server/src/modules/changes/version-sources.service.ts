import { tagCommits } from '../../integrations/git/git-refs.ts';
import { COMMIT_REF, resolveCommit } from '../../integrations/git/git-range.ts';
import { mirrorDirFor } from '../../integrations/git/remote-url.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';
import type { WorkflowsDirectory } from '../workflows/workflows-directory.ts';
import { versionTagNames } from './version-tags.ts';
import type { SourceOrigin, VersionSourcesRepository } from './version-sources.repository.ts';

/** An svn revision as CI gives it: `1234` or `r1234`; svn items are stored as `r<revision>`. */
const SVN_REVISION = /^r?(\d{1,12})$/i;

export interface GivenSource {
  /** Commit ids (full or abbreviated) or svn revisions, one per repository at most. */
  commits: string[];
  branch: string | null;
  origin: Extract<SourceOrigin, 'upload' | 'package'>;
}

export interface SourcedVersion {
  id: number;
  app_id: number;
  app_version: string | null;
  build: string | null;
}

/**
 * Which source state a version was built from, per repository workflow of its app (issue 19): the commits given on
 * upload or read from the package, resolved against each git workflow's mirror; without a commit, a branch's tip at
 * upload time; without either, a tag named after the version (version-tags.ts). A commit no mirror has yet is kept
 * pending in every git workflow of the app and a sync of each is asked for; the sync that brings it resolves it.
 */
export function createVersionSourcesService(deps: {
  sources: VersionSourcesRepository;
  workflows: Pick<WorkflowsDirectory, 'listByApp'>;
  mirrorsDir: string;
  clock: Clock;
  logger: Logger;
  /** Asks for a sync of a repository workflow (a durable job). */
  requestSync: (workflowId: number) => Promise<void>;
}) {
  const { sources, clock } = deps;
  const mirrorOf = (workflow: WorkflowRecord) => mirrorDirFor(deps.mirrorsDir, workflow.repo_path ?? '');

  async function repositories(appId: number) {
    const flows = (await deps.workflows.listByApp(appId)).filter(
      (w) => w.content_type === 'default' && w.repo_path && (w.repo_type === 'git' || w.repo_type === 'svn'),
    );
    return { git: flows.filter((w) => w.repo_type === 'git'), svn: flows.filter((w) => w.repo_type === 'svn') };
  }

  async function put(version: SourcedVersion, workflowId: number, commitId: string, fields: PutFields) {
    const now = clock.now();
    await sources.put({
      app_version_id: version.id,
      workflow_id: workflowId,
      commit_id: commitId,
      branch: fields.branch,
      origin: fields.origin,
      resolved: fields.resolved ? 1 : 0,
      create_time: now,
    });
  }

  async function recordCommit(version: SourcedVersion, commit: string, given: GivenSource, git: WorkflowRecord[]) {
    for (const workflow of git) {
      const full = await resolveCommit(mirrorOf(workflow), commit);
      if (full) return put(version, workflow.id, full, { ...given, resolved: true });
    }
    // Not in any mirror yet (pushed after the last poll): pending everywhere, and every mirror is brought up to date.
    for (const workflow of git) {
      await put(version, workflow.id, commit.toLowerCase(), { ...given, resolved: false });
      await deps.requestSync(workflow.id);
    }
  }

  async function recordBranchTips(version: SourcedVersion, branch: string, git: WorkflowRecord[]) {
    for (const workflow of git) {
      const tip = await resolveCommit(mirrorOf(workflow), `refs/heads/${branch}`, { allowNames: true });
      if (tip) await put(version, workflow.id, tip, { branch, origin: 'branch', resolved: true });
    }
  }

  async function recordTags(version: SourcedVersion, git: WorkflowRecord[]) {
    const names = versionTagNames(version.app_version, version.build);
    if (names.length === 0) return;
    for (const workflow of git) {
      // Only the candidate names are looked up (a repository may have tens of thousands of tags).
      const tags = await tagCommits(mirrorOf(workflow), names).catch(() => new Map<string, string>());
      // The most specific name first (with the build), and only a tag of a commit.
      const commitId = names.map((name) => tags.get(name)).find(Boolean);
      if (commitId) await put(version, workflow.id, commitId, { branch: null, origin: 'tag', resolved: true });
    }
  }

  return {
    /**
     * Records where a new version came from. Never fails the publish: what cannot be read is logged and the version
     * simply has no source (its changes then fall back to the time between builds).
     */
    async record(version: SourcedVersion, given: GivenSource): Promise<void> {
      try {
        const { git, svn } = await repositories(version.app_id);
        const commits = given.commits.filter(Boolean);
        for (const commit of commits) {
          const revision = SVN_REVISION.exec(commit);
          // A number of 7+ digits is also a git abbreviation: svn's only when it says r…, or when there is no git.
          if (
            revision &&
            (commit.startsWith('r') || commit.startsWith('R') || !COMMIT_REF.test(commit) || git.length === 0)
          ) {
            for (const workflow of svn)
              await put(version, workflow.id, `r${revision[1]}`, { ...given, resolved: true });
          } else if (COMMIT_REF.test(commit)) await recordCommit(version, commit, given, git);
        }
        if (commits.length === 0 && given.branch) await recordBranchTips(version, given.branch, git);
        if (commits.length === 0 && !given.branch) await recordTags(version, git);
      } catch (error) {
        deps.logger.warn({ err: error, versionId: version.id }, 'version source not recorded');
      }
    },

    /** After a sync of a git workflow: the pending commits its mirror now has are resolved. */
    async resolvePending(workflow: WorkflowRecord): Promise<number> {
      if (workflow.repo_type !== 'git') return 0;
      let resolved = 0;
      for (const row of await sources.pendingIn(workflow.id)) {
        const full = await resolveCommit(mirrorOf(workflow), row.commit_id);
        if (!full) continue;
        await sources.resolve(row.app_version_id, workflow.id, row.commit_id, full, clock.now());
        resolved += 1;
      }
      return resolved;
    },

    ofVersions: (versionIds: number[]) => sources.ofVersions(versionIds),
  };
}
export type VersionSourcesService = ReturnType<typeof createVersionSourcesService>;

interface PutFields {
  branch: string | null;
  origin: SourceOrigin;
  resolved: boolean;
}
