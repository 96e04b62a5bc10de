import { z } from 'zod';
import { intFromQuery } from './common.ts';

export const COMMIT_PAGE_SIZE = 30;

const boolFromQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const boundVersion = z.object({
  appVersionId: z.number(),
  indexNo: z.number(),
  appVersion: z.string().nullable(),
  build: z.string().nullable(),
  /** The build was removed (issue 20): the item still names it and shows 已删除; its file is gone. */
  removed: z.boolean(),
});
export const bindVersions = z.object({
  ipa: z.array(boundVersion),
  apk: z.array(boundVersion),
  zip: z.array(boundVersion),
  /** HarmonyOS builds (.hap/.hsp/.app). */
  hap: z.array(boundVersion),
});

/** SPEC §3 Commit / update item (display fields like date/time are derived on the client). */
export const commitLogItem = z.object({
  id: z.number(),
  appId: z.number(),
  workflowId: z.number(),
  appName: z.string(),
  tabName: z.string(),
  repoPath: z.string().nullable(),
  commitId: z.string(),
  commitTime: z.number(),
  updateTime: z.number(),
  branch: z.string().nullable(),
  tagName: z.string().nullable(),
  tagSummary: z.array(z.string()),
  commitMessage: z.string(),
  description: z.string(),
  fileUrls: z.array(z.string()),
  /** The committer's name (SPEC calls it remark). */
  remark: z.string(),
  uploadBy: z.string().nullable(),
  nativePackageType: z.string().nullable(),
  cdnUrl: z.string().nullable(),
  bindVersions,
  /** A package workflow's item: the package it is (version, build, index number); null for commits and pushes. */
  packageVersion: boundVersion.nullable(),
  /** Hidden unless "show filtered logs" is on: committer filter misses and merge commits. */
  filtered: z.boolean(),
  hasMetadata: z.boolean(),
});
export type CommitLogItem = z.infer<typeof commitLogItem>;

export const commitLogListQuery = z.object({
  /** Comma-joined workflow ids (the summary tab sends its summaryId). */
  workflowIds: z.string().regex(/^\d+(,\d+)*$/, 'workflowIds 格式不正确'),
  branch: z.string().trim().max(255).optional(),
  onlyCliff: boolFromQuery.default(true),
  startTime: intFromQuery.optional(),
  endTime: intFromQuery.optional(),
  remark: z.string().trim().max(128).optional(),
  pageNo: intFromQuery.min(1).default(1),
  pageSize: intFromQuery.min(1).max(200).default(COMMIT_PAGE_SIZE),
  /** Keyset paging for infinite scroll: the `nextCursor` of the previous page; `pageNo` is ignored then. */
  cursor: z
    .string()
    .regex(/^\d+:\d+$/, 'cursor 格式不正确')
    .optional(),
});
export type CommitLogListQuery = z.infer<typeof commitLogListQuery>;

export const userCommitLogListQuery = commitLogListQuery
  .omit({ workflowIds: true })
  .extend({ remark: z.string().trim().min(1).max(128) });
export type UserCommitLogListQuery = z.infer<typeof userCommitLogListQuery>;

export const commitLogPage = z.object({
  list: z.array(commitLogItem),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});

export const updateCommitLogBody = z.object({
  id: intFromQuery.min(1),
  description: z.string().max(20_000).default(''),
  /** A JSON string of media links (SPEC §7). */
  fileUrls: z.string().max(100_000).default('[]'),
});
export const commitLogDetailQuery = z.object({ commitId: z.string().min(1).max(128), workflowId: intFromQuery.min(1) });
export const metadataListBody = z.object({ ids: z.array(intFromQuery.min(1)).max(500) });
export const bindCommitBody = z.object({
  commitId: intFromQuery.min(1),
  appVersionIds: z.array(intFromQuery.min(1)).max(100),
});

/** SPEC §5 media classification. */
const VIDEO = /\.(mp4|webm|ogg|mov|avi)(\?|#|$)/i;
const IMAGE = /\.(jpeg|jpg|gif|png|webp|bmp|svg)(\?|#|$)/i;
export function mediaKind(url: string): 'video' | 'image' | 'json' | 'other' {
  if (VIDEO.test(url)) return 'video';
  if (IMAGE.test(url)) return 'image';
  if (/\.json(\?|#|$)/i.test(url)) return 'json';
  return 'other';
}
/** Empty or missing file urls are dropped (SPEC §5). */
export function cleanFileUrls(urls: unknown): string[] {
  return Array.isArray(urls) ? urls.filter((u): u is string => typeof u === 'string' && u.trim() !== '') : [];
}

/** SPEC §3 Upload-log metadata: what an asset or level system changed. */
export const uploadLogMetadata = z.object({
  applications: z
    .array(
      z.object({
        applicationId: z.union([z.string(), z.number()]),
        name: z.string().max(200),
        icon: z.string().max(1024).nullable().optional(),
        changelogs: z
          .array(
            z.object({
              id: z.union([z.string(), z.number()]),
              elementType: z.enum(['element', 'level', 'survey']),
              gameplay: z.string().max(64).nullable().optional(),
              categoryName: z.string().max(200).nullable().optional(),
              count: z.number().int().min(0),
            }),
          )
          .max(1000),
      }),
    )
    .max(200),
});

/** SPEC §3 Wiki-event metadata (document edits). */
export const wikiEventMetadata = z.object({
  event: z.enum([
    'drive.file.create_v1',
    'drive.file.edit_v1',
    'drive.file.bitable_record_changed_v1',
    'drive.file.bitable_field_changed_v1',
  ]),
  spaceName: z.string().max(200).nullable().optional(),
  objTitle: z.string().max(500),
  url: z.string().max(2048).nullable().optional(),
  changeVisible: z.boolean().default(true),
  beforeContent: z.string().max(200_000).nullable().optional(),
  afterContent: z.string().max(200_000).nullable().optional(),
});

/** The smallest pushed `time`: 10^12 ms is 2001-09-09; anything below is a Unix-seconds value sent by mistake. */
const MIN_PUSH_TIME_MS = 1_000_000_000_000;

/** POST /api/workflow/push/{token}: what JPS, JPS game or another system reports to a custom workflow. */
export const customPushBody = z.object({
  items: z
    .array(
      z.object({
        id: z
          .string()
          .trim()
          .min(1)
          // Stored as `x:<id>` in a 128-character column.
          .max(126)
          .describe(
            "The sender's own id of the change (at most 126 characters). An id already stored in this workflow is skipped (answered in `created`: 0) and keeps its first text; a push never changes a stored item.",
          ),
        /** Milliseconds: a Unix-seconds value (below 10^12, before 2001-09-09 as ms) is refused, it would be stored in 1970. */
        time: z
          .number()
          .int()
          .min(MIN_PUSH_TIME_MS, '应为毫秒时间戳（13 位数字）')
          .describe(
            'When the change happened, in milliseconds since 1970-01-01 UTC (13 digits, e.g. `Date.now()` or `date +%s%3N`); seconds (`date +%s`) are refused.',
          ),
        author: z.string().trim().min(1).max(128),
        message: z.string().max(20_000),
        url: z.string().max(2048).nullable().optional(),
        metadata: z.union([uploadLogMetadata, wikiEventMetadata]).nullable().optional(),
      }),
    )
    .min(1)
    .max(500),
});
export type CustomPushBody = z.infer<typeof customPushBody>;

export const GAMEPLAY_LABELS: Record<string, string> = { main: '主玩法', side: '副玩法', mini: '小游戏' };
export const ELEMENT_LABELS: Record<string, string> = { element: '素材', level: '关卡', survey: '问卷' };
export const WIKI_EVENT_LABELS: Record<string, string> = {
  'drive.file.create_v1': '新增文档',
  'drive.file.edit_v1': '修改文档',
  'drive.file.bitable_record_changed_v1': '多维表格记录变更',
  'drive.file.bitable_field_changed_v1': '多维表格字段变更',
};
export function gameplayLabel(gameplay: string | null | undefined): string {
  return (gameplay && GAMEPLAY_LABELS[gameplay]) || '未知玩法';
}

/**
 * SPEC §9: commit ids are shown by their first 7 characters. Items pushed by other systems and Lark documents
 * (ids `x:…`) have no id a reader could use, so they show none.
 */
export function shortCommitId(commitId: string): string | null {
  return commitId.startsWith('x:') ? null : commitId.slice(0, 7);
}
