import {
  cleanFileUrls,
  groupByBound,
  type CommitLogCalendarQuery,
  type CommitLogItem,
  type CommitLogListQuery,
  type UserCommitLogCalendarQuery,
  type UserCommitLogListQuery,
} from '@release/contract';
import { redactRepoUrl } from '../../integrations/git/remote-url.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { MembersLookup } from '../apps/apps-directory.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { Links } from '../../http/links.ts';
import { storedMediaUrl } from '../../http/media-links.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import type { WorkflowsDirectory } from '../workflows/workflows-directory.ts';
import type { CommitLogFilter, CommitLogListRow, CommitLogsRepository } from './commit-logs.repository.ts';

const NOT_FOUND = '更新记录不存在';
/** A git id or a prefix of one (SHA-1 40, SHA-256 64 hex digits), compared in lower case. */
const SHORT_ID = /^[0-9a-f]{7,64}$/;
const AMBIGUOUS = (prefix: string) => `提交号 ${prefix} 对应多个提交，请输入更长的提交号`;

/**
 * The deepest item a `pageNo` page may start after. An OFFSET steps over every entry above it (no index counts them),
 * so pages past this are refused with the way on: the keyset cursor, which starts at its item at any depth.
 */
export const MAX_PAGE_OFFSET = 2_000;
export const PAGE_TOO_DEEP = (pageSize: number) =>
  `页码过深：每页 ${pageSize} 条时 pageNo 最多为 ${Math.floor(MAX_PAGE_OFFSET / pageSize) + 1}，更早的记录请用上一页返回的 nextCursor 作为 cursor 继续翻页`;

/** Page numbers as the spec sends them (down to MAX_PAGE_OFFSET), or a keyset cursor (`<commitTime>:<id>`) at any depth. */
function paging(pageNo: number, pageSize: number, cursor: string | undefined) {
  if (!cursor) {
    const offset = (pageNo - 1) * pageSize;
    if (offset > MAX_PAGE_OFFSET) throw AppError.badRequest(PAGE_TOO_DEEP(pageSize));
    return { offset, limit: pageSize };
  }
  const [commitTime, id] = cursor.split(':').map(Number);
  return { offset: 0, limit: pageSize, before: { commitTime: commitTime ?? 0, id: id ?? 0 } };
}

/** A record's media links as shown to a viewer: ours signed, others as they are. */
function signedFileUrls(stored: string[], present: Links): string[] {
  return stored.map((url) => present.mediaUrl(url) ?? url);
}

export interface CommitLogsDeps {
  logs: CommitLogsRepository;
  workflows: WorkflowsDirectory;
  versions: VersionsDirectory;
  members: MembersLookup;
  policy: AppsPolicy;
  clock: Clock;
}

export function createCommitLogsService(deps: CommitLogsDeps) {
  const { logs, workflows, versions, members, policy, clock } = deps;

  async function page(filter: CommitLogFilter, present: Links) {
    const rows = await logs.list(filter);
    const hasMore = rows.length > filter.limit;
    const shown = rows.slice(0, filter.limit);
    const bound = await logs.boundVersions(shown.map((r) => r.id));
    const list = await Promise.all(
      shown.map((row) =>
        toItem(
          row,
          bound.filter((b) => b.commitLogId === row.id),
          present,
        ),
      ),
    );
    const last = shown.at(-1);
    return { list, hasMore, nextCursor: hasMore && last ? `${last.commit_time}:${last.id}` : null };
  }

  async function toItem(
    row: CommitLogListRow,
    bound: Awaited<ReturnType<CommitLogsRepository['boundVersions']>>,
    present: Links,
  ): Promise<CommitLogItem> {
    const bindVersions = groupByBound(
      bound,
      (b) => b.type,
      ({ appVersionId, indexNo, appVersion, build, removedTime }) => ({
        appVersionId,
        indexNo,
        appVersion,
        build,
        removed: removedTime !== null,
      }),
    );
    const removed = row.version_removed_time !== null;
    return {
      id: row.id,
      appId: row.app_id,
      workflowId: row.workflow_id,
      appName: row.app_name,
      tabName: row.tab_name,
      repoPath: row.repo_path === null ? null : redactRepoUrl(row.repo_path),
      commitId: row.commit_id,
      commitTime: row.commit_time,
      updateTime: row.update_time,
      branch: row.branch,
      tagName: row.tag_name,
      tagSummary: row.tag_summary,
      commitMessage: row.commit_message,
      description: row.description,
      fileUrls: signedFileUrls(row.file_urls, present),
      remark: row.remark,
      uploadBy: row.upload_by_name,
      nativePackageType: row.native_package_type,
      // A removed build's file is gone: its item keeps its text and says 已删除, with nothing to download.
      cdnUrl: row.file_key && row.file_name && !removed ? await present.fileUrl(row.file_key, row.file_name) : null,
      bindVersions,
      packageVersion:
        row.app_version_id !== null && row.index_no !== null
          ? {
              appVersionId: row.app_version_id,
              indexNo: row.index_no,
              appVersion: row.app_version,
              build: row.build,
              removed,
            }
          : null,
      filtered: row.is_filtered === 1,
      hasMetadata: row.metadata !== null,
    };
  }

  async function editableLog(editor: AuthUser, id: number) {
    const log = await logs.findById(id);
    if (!log) throw AppError.notFound(NOT_FOUND);
    await policy.assertCanEdit(editor, log.app_id);
    return log;
  }

  /** The item a short or upper-case git id (as the list shows and people paste) names; ambiguous is refused. */
  async function byShortId(workflowId: number, commitId: string) {
    const prefix = commitId.trim().toLowerCase();
    if (!SHORT_ID.test(prefix)) return undefined;
    const found = await logs.findByCommitPrefix(workflowId, prefix);
    if (found.length > 1) throw AppError.badRequest(AMBIGUOUS(prefix));
    return found[0];
  }

  /** Whose app permits limit what the viewer reads (undefined: nobody's, for admins). */
  function readerOf(viewer: AuthUser): number | undefined {
    return viewer.isAdmin ? undefined : viewer.userId;
  }

  /** Apps whose logs the viewer may read across apps (undefined: all, for admins). */
  async function visibleAppIds(viewer: AuthUser): Promise<number[] | undefined> {
    if (viewer.isAdmin) return undefined;
    return (await members.appsOfUser(viewer.userId)).map((a) => Number(a.appId));
  }

  /** The workflows of `workflowIds`, each of an app the viewer may see (else 404). */
  async function viewableWorkflowIds(viewer: AuthUser, workflowIds: string): Promise<number[]> {
    const ids = [...new Set(workflowIds.split(',').map(Number))];
    const found = await workflows.findByIds(ids);
    if (found.length !== ids.length) throw AppError.notFound('工作流不存在');
    for (const appId of new Set(found.map((w) => w.app_id))) await policy.assertCanView(viewer, appId);
    return ids;
  }

  return {
    async list(viewer: AuthUser, query: CommitLogListQuery, present: Links) {
      const ids = await viewableWorkflowIds(viewer, query.workflowIds);
      const { pageNo, pageSize, cursor, ...rest } = query;
      return page({ ...rest, workflowIds: ids, ...paging(pageNo, pageSize, cursor) }, present);
    },

    /** A user's trend (`/trend/{user}`): their update items across the apps the viewer can see. */
    async userList(viewer: AuthUser, query: UserCommitLogListQuery, present: Links) {
      const { pageNo, pageSize, cursor, ...rest } = query;
      return page({ ...rest, appIds: await visibleAppIds(viewer), ...paging(pageNo, pageSize, cursor) }, present);
    },

    /** A calendar window of workflows (a tab, or the summary's ids): each cell's counts, in one read. */
    async calendar(viewer: AuthUser, query: CommitLogCalendarQuery) {
      const { workflowIds, ...rest } = query;
      return logs.calendar({ ...rest, workflowIds: await viewableWorkflowIds(viewer, workflowIds) });
    },

    /** A committer's calendar over the apps the viewer can see. */
    async userCalendar(viewer: AuthUser, query: UserCommitLogCalendarQuery) {
      return logs.calendar({ ...query, appIds: await visibleAppIds(viewer) });
    },

    /** Edit / supplement: a description and media (SPEC §2 snapshot drawer). */
    async update(editor: AuthUser, body: { id: number; description: string; fileUrls: string }) {
      await editableLog(editor, body.id);
      let urls: unknown;
      try {
        urls = JSON.parse(body.fileUrls);
      } catch {
        throw AppError.badRequest('参数错误：fileUrls 不是合法的JSON');
      }
      // Our media are kept as /api/media/<key>: the signed links the page was shown expire.
      const kept = cleanFileUrls(urls)
        .slice(0, 100)
        .map((url) => storedMediaUrl(url));
      await logs.update(body.id, {
        description: body.description,
        file_urls: kept,
        update_time: clock.now(),
      });
    },

    async detail(viewer: AuthUser, commitId: string, workflowId: number, present: Links) {
      const workflow = await workflows.findById(workflowId);
      if (!workflow) throw AppError.notFound('工作流不存在');
      await policy.assertCanView(viewer, workflow.app_id);
      const log = (await logs.findByCommit(workflowId, commitId)) ?? (await byShortId(workflowId, commitId));
      if (!log) throw AppError.notFound(NOT_FOUND);
      return {
        id: log.id,
        commitId: log.commit_id,
        description: log.description,
        fileUrls: signedFileUrls(log.file_urls, present),
        commitMessage: log.commit_message,
        remark: log.remark,
        commitTime: log.commit_time,
      };
    },

    /** SPEC §7: each id mapped to its metadata JSON string (only the viewer's apps). */
    async metadataList(viewer: AuthUser, ids: number[]): Promise<Record<string, string>> {
      const out: Record<string, string> = {};
      for (const row of await logs.metadataOf(ids, readerOf(viewer))) out[String(row.id)] = row.metadata;
      return out;
    },

    /** Binds an update item to package versions of the same app (`/api/app_version/bind_commit`). */
    async bindCommit(editor: AuthUser, commitLogId: number, appVersionIds: number[]) {
      const log = await editableLog(editor, commitLogId);
      // A removed build the item is bound to stays bound when the snapshot is saved again (it is shown 已删除 and
      // sent back with the others); a removed build cannot be newly bound.
      const boundRemoved = new Set(
        (await logs.boundVersions([commitLogId])).filter((b) => b.removedTime !== null).map((b) => b.appVersionId),
      );
      for (const id of appVersionIds) {
        if (boundRemoved.has(id)) continue;
        const version = await versions.findById(id);
        if (!version || version.app_id !== log.app_id) throw AppError.badRequest('只能绑定同一应用的安装包版本');
      }
      await logs.replaceBindings(commitLogId, [...new Set(appVersionIds)]);
    },

    /** Before/after of document edits, for the wiki-difference modal (items without a document change are skipped). */
    async wikiDiff(viewer: AuthUser, ids: number[]) {
      const out: Array<{
        id: number;
        objTitle: string;
        url: string | null;
        event: string;
        beforeContent: string;
        afterContent: string;
      }> = [];
      for (const { id, event: m } of await logs.wikiEventsOf(ids, readerOf(viewer))) {
        out.push({
          id,
          objTitle: m.objTitle,
          url: m.url ?? null,
          event: m.event,
          beforeContent: m.beforeContent ?? '',
          afterContent: m.afterContent ?? '',
        });
      }
      return out;
    },

    async committers(viewer: AuthUser) {
      return logs.committers(await visibleAppIds(viewer));
    },
  };
}
export type CommitLogsService = ReturnType<typeof createCommitLogsService>;
