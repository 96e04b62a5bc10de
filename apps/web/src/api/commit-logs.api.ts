import type { CalendarCountPer, CommitLogCalendar, CommitLogItem } from '@release/contract';
import { api } from './client.ts';

/** Where a list's items come from: workflows (a tab, or the summary's ids) or one committer's trend. */
export type CommitSource = { kind: 'workflows'; workflowIds: string } | { kind: 'user'; user: string };

/** The server-side filters of SPEC §7 commit_log_list (the display categories stay on the client). */
export interface CommitQuery {
  onlyCliff: boolean;
  startTime?: number;
  endTime?: number;
  /** A committer (remark); on the trend page it is the page's user. */
  remark?: string;
  branch?: string;
}

export interface CommitPage {
  list: CommitLogItem[];
  hasMore: boolean;
  /** Keyset cursor of the next page (null on the last one). */
  nextCursor: string | null;
}

/** The ipa, apk, zip and hap versions of an app (GET /api/app_versions/simple), same shape as bindVersions. */
export type SimpleVersions = CommitLogItem['bindVersions'];
export type SimpleVersion = SimpleVersions['ipa'][number];

export interface CommitDetail {
  id: number;
  commitId: string;
  description: string;
  fileUrls: string[];
  commitMessage: string;
  remark: string;
  commitTime: number;
}

/** SPEC §9: bind/sign calls wait 60 s; media uploads get the package upload timeout. */
const BIND_TIMEOUT_MS = 60_000;
const MEDIA_UPLOAD_TIMEOUT_MS = 300_000;

export const commitKeys = {
  all: ['commit-logs'] as const,
  calendar: (source: CommitSource, query: CommitQuery) => ['commit-logs', 'calendar', source, query] as const,
  calendarCounts: (source: CommitSource, query: object) => ['commit-logs', 'calendar-counts', source, query] as const,
  metadata: (ids: number[]) => ['commit-logs', 'metadata', ids] as const,
  detail: (commitId: string, workflowId: number) => ['commit-logs', 'detail', commitId, workflowId] as const,
  simpleVersions: (appId: number) => ['versions', 'simple', appId] as const,
};

interface PageOptions {
  pageNo: number;
  /** The previous page's nextCursor: the server then reads on from it and ignores pageNo. */
  cursor?: string | null;
  pageSize: number;
  signal?: AbortSignal;
  /** No error toast (the calendar fails quietly, SPEC §4). */
  silent?: boolean;
}

/** GET /api/commit_log_list or /api/user_commit_log_list: one page, newest first. */
export async function fetchCommitPage(
  source: CommitSource,
  query: CommitQuery,
  { pageNo, cursor, pageSize, signal, silent }: PageOptions,
): Promise<CommitPage> {
  const params = { ...query, pageNo, pageSize, ...(cursor ? { cursor } : {}) };
  const response =
    source.kind === 'workflows'
      ? await api.get<CommitPage>(
          '/api/commit_log_list',
          { ...params, workflowIds: source.workflowIds },
          { signal, silent },
        )
      : await api.get<CommitPage>('/api/user_commit_log_list', { ...params, remark: source.user }, { signal, silent });
  return response.data;
}

/** A calendar window cut into cells: cell i is [bounds[i], bounds[i+1]), as the viewer's clock cuts days or months. */
export interface CalendarCells {
  bounds: number[];
  countPer: CalendarCountPer;
  /** The trend's project: only its items are counted. */
  project?: string | null;
}

/** GET /api/commit_log_calendar or /api/user_commit_log_calendar: every cell's counts in one read. */
export async function fetchCommitCalendar(
  source: CommitSource,
  query: Pick<CommitQuery, 'onlyCliff' | 'remark' | 'branch'>,
  { bounds, countPer, project }: CalendarCells,
  signal?: AbortSignal,
): Promise<CommitLogCalendar> {
  const params = { ...query, bounds: bounds.join(','), countPer, project };
  const options = { signal, silent: true };
  const response =
    source.kind === 'workflows'
      ? await api.get<CommitLogCalendar>(
          '/api/commit_log_calendar',
          { ...params, workflowIds: source.workflowIds },
          options,
        )
      : await api.get<CommitLogCalendar>('/api/user_commit_log_calendar', { ...params, remark: source.user }, options);
  return response.data;
}

/** POST /api/commit_log/metadata_list: each id's metadata JSON string; quiet, metadata is extra. */
export async function fetchCommitMetadata(ids: number[], signal?: AbortSignal): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  return (await api.post<Record<string, string>>('/api/commit_log/metadata_list', { ids }, { signal, silent: true }))
    .data;
}

/** GET /api/commit_log/detail. */
/** silent: no error toast (the detail page says itself that the item was not found). */
export async function fetchCommitDetail(
  commitId: string,
  workflowId: number,
  signal?: AbortSignal,
  silent = false,
): Promise<CommitDetail> {
  return (await api.get<CommitDetail>('/api/commit_log/detail', { commitId, workflowId }, { signal, silent })).data;
}

/** POST /api/commit_log/update: the snapshot's description and media (fileUrls as a JSON string). */
export async function updateCommitLog(body: { id: number; description: string; fileUrls: string[] }): Promise<void> {
  await api.post<unknown>('/api/commit_log/update', {
    id: body.id,
    description: body.description,
    fileUrls: JSON.stringify(body.fileUrls),
  });
}

/** POST /api/app_version/bind_commit: replaces the item's bound package versions. */
export async function bindCommitVersions(commitId: number, appVersionIds: number[]): Promise<void> {
  await api.post<unknown>('/api/app_version/bind_commit', { commitId, appVersionIds }, { timeoutMs: BIND_TIMEOUT_MS });
}

export async function fetchSimpleVersions(appId: number, signal?: AbortSignal): Promise<SimpleVersions> {
  return (await api.get<SimpleVersions>('/api/app_versions/simple', { appId }, { signal })).data;
}

/** POST /api/upload with type=media: a snapshot image or video; answers its url. Silent: the caller shows the one failure toast. */
export async function uploadMediaFile(file: File): Promise<string> {
  // `type` goes before `file`: the server reads the fields that precede the file part.
  return (
    await api.upload<{ url: string }>(
      '/api/upload',
      { type: 'media', file },
      { timeoutMs: MEDIA_UPLOAD_TIMEOUT_MS, silent: true },
    )
  ).data.url;
}
