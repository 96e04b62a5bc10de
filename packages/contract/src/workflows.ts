import { z } from 'zod';
import { intFromQuery } from './common.ts';

/** SPEC §3 Workflow tab. contentType: default = repository logs, package = uploaded versions, custom = other sources. */
export const contentTypes = ['default', 'package', 'custom'] as const;
export const manageTypes = ['git', 'JPS', 'JPS_GAME', 'wiki', 'other'] as const;
export const repoTypes = ['git', 'svn', 'other', 'JPS', 'JPS_GAME', 'wiki'] as const;
export const packageTypes = ['unity', 'native', 'webZip', 'macTool', 'ipa', 'apk'] as const;

/** The summary tab (工作流汇总): not stored, id '-1', shown when more than one tab has a repoType. */
export const SUMMARY_TAB_ID = -1;
export const SUMMARY_TAB_NAME = '工作流汇总';

export const WorkflowMessages = {
  nameRequired: '请输入工作流名称!',
  categoryRequired: '请选择类别!',
  typeRequired: '请选择工作流类型!',
  repoTypeRequired: '请选择仓库类型!',
  repoPathRequired: '请输入仓库地址!',
  sourceRequired: '请选择来源!',
  packageTypeRequired: '请选择上传包类型!',
  notFound: '工作流不存在',
} as const;

export const workflowRow = z.object({
  id: z.number(),
  appId: z.number(),
  tabName: z.string(),
  contentType: z.enum(contentTypes),
  manageType: z.string().nullable(),
  repoType: z.string().nullable(),
  repoPath: z.string().nullable(),
  /** Stored and answered with `refs/heads/` before each comma-separated branch. */
  defaultBranch: z.string().nullable(),
  committers: z.array(z.string()),
  robotUrl: z.string().nullable(),
  autoPush: z.boolean(),
  packageType: z.string().nullable(),
  orderNo: z.number(),
  isSummary: z.boolean(),
  summaryId: z.string().nullable(),
  enterpriseName: z.string().nullable(),
  /** Where git hosts post pushes for this workflow, and the secret they sign with (editors only). */
  webhookUrl: z.string().nullable(),
  webhookSecret: z.string().nullable(),
  lastSyncTime: z.number().nullable(),
  lastSyncError: z.string().nullable(),
});
export type WorkflowRow = z.infer<typeof workflowRow>;

const branchesText = z.string().trim().max(1000).optional().nullable();

export const saveWorkflowBody = z
  .object({
    id: intFromQuery.min(1).optional(),
    appId: intFromQuery.min(1),
    tabName: z.string({ error: WorkflowMessages.nameRequired }).trim().min(1, WorkflowMessages.nameRequired).max(64),
    contentType: z.enum(contentTypes, { error: WorkflowMessages.categoryRequired }),
    manageType: z.enum(manageTypes, { error: WorkflowMessages.typeRequired }).optional().nullable(),
    repoType: z.enum(repoTypes, { error: WorkflowMessages.repoTypeRequired }).optional().nullable(),
    repoPath: z.string().trim().max(1024).optional().nullable(),
    defaultBranch: branchesText,
    committers: z.array(z.string().trim().min(1).max(128)).max(200).default([]),
    robotUrl: z
      .string()
      .trim()
      .max(1024)
      .url('请输入正确的网址')
      .optional()
      .nullable()
      .or(z.literal('').transform(() => null)),
    autoPush: z.boolean().default(false),
    packageType: z.enum(packageTypes, { error: WorkflowMessages.packageTypeRequired }).optional().nullable(),
    enterpriseName: z.string().trim().max(128).optional().nullable(),
  })
  .superRefine((w, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (w.contentType === 'default') {
      if (!w.repoType) issue('repoType', WorkflowMessages.repoTypeRequired);
      if (w.repoType && w.repoType !== 'other' && !w.repoPath) issue('repoPath', WorkflowMessages.repoPathRequired);
    }
    if (w.contentType === 'custom') {
      if (!w.manageType) issue('manageType', WorkflowMessages.typeRequired);
      // SPEC §5: the log source (stored as enterpriseName) is asked for unless the type is 其他.
      else if (w.manageType !== 'other' && !w.enterpriseName) issue('enterpriseName', WorkflowMessages.sourceRequired);
    }
    if (w.contentType === 'package' && !w.packageType) issue('packageType', WorkflowMessages.packageTypeRequired);
  });
export type SaveWorkflowBody = z.infer<typeof saveWorkflowBody>;

export const workflowOrderBody = z
  .array(z.object({ id: intFromQuery.min(1), orderNo: intFromQuery.min(1) }))
  .min(1)
  .max(200);

/** `main,release/1.x` → `refs/heads/main,refs/heads/release/1.x` (SPEC §3). */
export function toStoredBranches(text: string | null | undefined): string | null {
  const names = branchNames(text);
  return names.length ? names.map((b) => `refs/heads/${b}`).join(',') : null;
}

/** The short branch names of a stored or typed value, without repeats. */
export function branchNames(stored: string | null | undefined): string[] {
  return [
    ...new Set(
      (stored ?? '')
        .split(',')
        .map((b) => b.trim().replace(/^refs\/heads\//, ''))
        .filter(Boolean),
    ),
  ];
}

/** SPEC §4: a new workflow's orderNo is the highest existing plus one (0 when there is none). */
export function nextOrderNo(existing: number[]): number {
  return existing.length ? Math.max(...existing) + 1 : 0;
}
