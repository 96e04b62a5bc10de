import type { CustomPushBody } from '@release/contract';
import type { Insertable, CommitLogsTable } from '../../db/schema.ts';
import { matchesCommitter, type SourceCommit } from '../../integrations/source-commit.ts';
import type { Clock } from '../../lib/clock.ts';
import { yieldToEventLoop } from '../../lib/event-loop.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';
import type { WorkflowsDirectory } from '../workflows/workflows-directory.ts';
import type { CommitLogsRepository } from './commit-logs.repository.ts';
import { commitLogColumns } from './commit-log-columns.ts';

const MERGE_MESSAGE = /^Merge (branch|pull request|remote-tracking branch|tag) /;

/** Items re-decided per page when a committer filter changes. */
const REFILTER_PAGE = 5_000;

/** Kept but hidden by default: commits outside the workflow's committer filter, and merge commits. */
function isFiltered(
  committers: readonly string[],
  authorName: string,
  authorEmail: string | null,
  message: string,
): 0 | 1 {
  return matchesCommitter(committers, authorName, authorEmail) && !MERGE_MESSAGE.test(message) ? 0 : 1;
}

/**
 * Text from git, svn, webhooks and Lark as a column takes it: any NUL character (U+0000) shown as U+FFFD (PostgreSQL
 * cannot store NUL in text), and cut to the column's width in characters (PostgreSQL refuses a longer value, which
 * would fail the whole batch on every poll; SQLite would keep it). Refusing either would lose the push or the poll.
 */
function text(value: string, max: number): string;
function text(value: string | null, max: number): string | null;
function text(value: string | null, max: number): string | null {
  if (value === null) return null;
  const clean = value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
  if (clean.length <= max) return clean;
  const chars = Array.from(clean);
  return chars.length <= max ? clean : chars.slice(0, max).join('');
}
/** Widths of commit_logs' bounded columns (migration 004); messages are unbounded text. */
const WIDTH = { branch: 255, tag: 255, remark: 128, email: 255, url: 1024, message: Number.MAX_SAFE_INTEGER } as const;

/** Turns what the sources report into update items, once per (workflow, commit). */
export function createCommitIngestService(deps: {
  logs: CommitLogsRepository;
  workflows: WorkflowsDirectory;
  versions: VersionsDirectory;
  clock: Clock;
  /** Told which workflows just got new items (autoPush sends them). */
  onNewItems?: (workflows: WorkflowRecord[]) => Promise<void>;
}) {
  const { logs, workflows, versions, clock } = deps;

  async function stored(targets: WorkflowRecord[], inserted: number): Promise<number> {
    if (inserted > 0 && targets.length) await deps.onNewItems?.(targets);
    return inserted;
  }

  function packageRow(workflow: WorkflowRecord, version: VersionRecord): Insertable<CommitLogsTable> {
    const label = [version.app_version, version.build ? `(${version.build})` : ''].filter(Boolean).join(' ');
    return {
      app_id: workflow.app_id,
      workflow_id: workflow.id,
      commit_id: `v${version.id}`,
      commit_time: version.create_time,
      branch: null,
      tag_name: null,
      tag_summary: '[]',
      commit_message: version.description || `${version.display_name ?? version.file_name} ${label}`.trim(),
      description: '',
      file_urls: '[]',
      remark: version.uploader ?? '',
      author_email: null,
      source_url: null,
      app_version_id: version.id,
      metadata: null,
      is_filtered: 0,
      create_time: clock.now(),
      update_time: clock.now(),
    };
  }

  return {
    /** Stores commits from git, svn or a webhook; answers how many were new. */
    async ingestCommits(workflow: WorkflowRecord, commits: SourceCommit[]): Promise<number> {
      const { committers } = workflow;
      const now = clock.now();
      const inserted = await logs.insertNew(
        commits.map((c) => ({
          app_id: workflow.app_id,
          workflow_id: workflow.id,
          commit_id: c.commitId,
          commit_time: c.commitTime,
          branch: text(c.branch, WIDTH.branch),
          tag_name: text(c.tags[0] ?? null, WIDTH.tag),
          tag_summary: commitLogColumns.tagSummary.encode(c.tagSummary.filter(Boolean)),
          commit_message: text(c.message, WIDTH.message),
          description: '',
          file_urls: '[]',
          remark: text(c.authorName, WIDTH.remark),
          author_email: text(c.authorEmail, WIDTH.email),
          source_url: text(c.url, WIDTH.url),
          app_version_id: null,
          metadata: c.files ? commitLogColumns.metadata.encode({ files: c.files }) : null,
          is_filtered: isFiltered(committers, c.authorName, c.authorEmail, c.message),
          create_time: now,
          update_time: now,
        })),
      );
      return stored([workflow], inserted);
    },

    /** Items pushed by JPS, JPS game, a wiki or another system to a custom workflow. */
    async ingestCustom(workflow: WorkflowRecord, items: CustomPushBody['items']): Promise<number> {
      const now = clock.now();
      const inserted = await logs.insertNew(
        items.map((item) => ({
          app_id: workflow.app_id,
          workflow_id: workflow.id,
          commit_id: `x:${item.id}`,
          commit_time: item.time,
          branch: null,
          tag_name: null,
          tag_summary: '[]',
          commit_message: text(item.message, WIDTH.message),
          description: '',
          file_urls: '[]',
          remark: text(item.author, WIDTH.remark),
          author_email: null,
          source_url: text(item.url ?? null, WIDTH.url),
          app_version_id: null,
          metadata: item.metadata ? commitLogColumns.metadata.encode(item.metadata) : null,
          is_filtered: 0,
          create_time: now,
          update_time: now,
        })),
      );
      return stored([workflow], inserted);
    },

    /**
     * After the committer filter of a repository workflow changed: its stored items are hidden or shown by the new
     * one, as if they had arrived under it, a page of REFILTER_PAGE at a time (memory stays bounded, and the event
     * loop gets a turn between pages: SQLite runs on it). Answers how many changed.
     */
    async refilter(workflow: WorkflowRecord): Promise<number> {
      const { committers } = workflow;
      let changed = 0;
      for (let afterId = 0; ; ) {
        const page = await logs.filterInputs(workflow.id, afterId, REFILTER_PAGE);
        const ids = { hide: [] as number[], show: [] as number[] };
        for (const item of page) {
          const value = isFiltered(committers, item.remark, item.author_email, item.head);
          if (value !== item.is_filtered) (value ? ids.hide : ids.show).push(item.id);
        }
        if (ids.hide.length + ids.show.length > 0) await logs.setFiltered(ids, clock.now());
        changed += ids.hide.length + ids.show.length;
        if (page.length < REFILTER_PAGE) return changed;
        afterId = page[page.length - 1]?.id ?? afterId;
        await yieldToEventLoop();
      }
    },

    /** A new version's item in each package workflow of its app (the version as just stored: not read again). */
    async recordVersion(version: VersionRecord) {
      const targets = await workflows.packageWorkflows(version.app_id);
      await stored(targets, await logs.insertNew(targets.map((w) => packageRow(w, version))));
    },

    /** A package workflow created later shows the versions published before it. */
    async backfillPackages(workflowId: number) {
      const workflow = await workflows.findById(workflowId);
      if (!workflow) return;
      const { rows } = await versions.list({ appId: workflow.app_id, pageNo: 1, pageSize: 10_000 });
      await logs.insertNew(rows.map((v) => packageRow(workflow, v)));
    },
  };
}
export type CommitIngestService = ReturnType<typeof createCommitIngestService>;
