import { z } from 'zod';
import { appBundleIds, appBundleIdsInput } from './bundle-ids.ts';
import { intFromQuery, pageQuery } from './common.ts';

export const appTypes = ['unity', 'native', 'doc', 'res'] as const;
export const appType = z.enum(appTypes);
export type AppType = z.infer<typeof appType>;

export const appSortColumns = ['update_time', 'app_name', 'create_time'] as const;
export const ALL_APP_TYPES = '全部';

const booleanFromQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'null', ''])])
  .transform((v) => v === true || v === 'true' || v === '1');

/** The app list filter of SPEC §3. -1 means "all" for categoryId and userId. */
export const appListQuery = pageQuery.extend({
  appType: z.union([appType, z.literal(ALL_APP_TYPES)]).default(ALL_APP_TYPES),
  categoryId: intFromQuery.min(-1).default(-1),
  userId: intFromQuery.min(-1).default(-1),
  viewCollect: booleanFromQuery.optional(),
  orderByColumn: z.enum(appSortColumns).default('update_time'),
  sort: z.enum(['ASC', 'DESC']).default('DESC'),
  appName: z.string().trim().max(128).optional(),
  pageSize: intFromQuery.min(1).max(1000).default(1000),
});
export type AppListQuery = z.infer<typeof appListQuery>;

export const appListItem = z.object({
  appId: z.number(),
  appName: z.string(),
  appType,
  appIcon: z.string().nullable(),
  categoryId: z.number().nullable(),
  categoryName: z.string(),
  path: z.string(),
  description: z.string(),
  collected: z.boolean(),
  subscribed: z.boolean(),
  unreadMessage: z.number(),
  createTime: z.number(),
  updateTime: z.number(),
});
export type AppListItem = z.infer<typeof appListItem>;

export const editorCount = z.object({ userId: z.number(), userName: z.string(), count: z.number() });
export const appListExtraInfo = z.object({
  total: z.number(),
  native: z.number(),
  unity: z.number(),
  appEditors: z.array(editorCount),
});
export type AppListExtraInfo = z.infer<typeof appListExtraInfo>;

export const appPermits = ['edit', 'view'] as const;
export const appPermit = z.enum(appPermits);
export type AppPermit = z.infer<typeof appPermit>;

export const appUser = z.object({ userId: z.number(), username: z.string(), permit: appPermit });
export type AppUser = z.infer<typeof appUser>;

/** SPEC §3 App, as GET /api/app answers it. Webhook addresses are shown to admins and editors only. */
export const appDetail = appListItem.extend({
  password: z.string(),
  publicPath: z.string(),
  downloadUrl: z.string(),
  supportUrl: z.string().nullable(),
  /** The main id (the first iOS one, else Android, else mac); `bundleIds` has them all. */
  bundleId: z.string().nullable(),
  bundleIds: appBundleIds,
  devWeComUrl: z.string().nullable(),
  prodWeComUrl: z.string().nullable(),
  /** The key its packages carry their source commit under (Info.plist, apk meta-data, version.json); null: defaults. */
  sourceCommitKey: z.string().nullable(),
  users: z.array(appUser),
  distributeUsers: z.array(z.object({ userId: z.number(), permit: appPermit })),
  /** What the caller may do here: admins and edit users edit, view users only download. */
  permit: z.enum(['admin', 'edit', 'view']),
});
export type AppDetail = z.infer<typeof appDetail>;

export const appIdQuery = z.object({ appId: z.coerce.number().int().min(1) });

export const APP_PATH_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const optionalUrl = z
  .string()
  .trim()
  .max(1024)
  .url('请输入正确的网址')
  .nullable()
  .optional()
  .or(z.literal('').transform(() => null));

/** POST /api/app: create (no appId, admins) or update. Messages are the ones of SPEC §5. */
export const saveAppBody = z.object({
  appId: z.coerce.number().int().min(1).optional(),
  appName: z.string({ error: '请输入应用名称!' }).trim().min(1, '请输入应用名称!').max(128),
  appType: z.enum(appTypes, { error: '请选择项目类型!' }),
  appIcon: z.string().max(1024).nullable().optional(),
  categoryId: z.coerce.number().int().min(0).nullable().optional(),
  password: z.string({ error: '请输入密码' }).refine((v) => installPasswordProblem(v) === null, {
    error: (issue) => installPasswordProblem(String(issue.input)) ?? '',
  }),
  path: z
    .string({ error: '请补全下载地址!' })
    .trim()
    .min(1, '请补全下载地址!')
    .regex(APP_PATH_PATTERN, '下载地址只能包含字母、数字、-和_，最多32位'),
  publicPath: z.string().trim().regex(APP_PATH_PATTERN).optional(),
  description: z.string().max(5000).default(''),
  /** The ids packages must carry per platform; left out, they stay as they are. */
  bundleIds: appBundleIdsInput.optional(),
  supportUrl: optionalUrl,
  devWeComUrl: optionalUrl,
  prodWeComUrl: optionalUrl,
  /** Left out (an older client), it stays; '' or null: the default keys. */
  sourceCommitKey: z
    .string()
    .trim()
    .max(100, '安装包内提交字段名最多 100 个字符')
    .regex(/^[\w.:-]*$/, '字段名只能包含字母、数字、_ . : -')
    .nullable()
    .optional(),
  distributeUsers: z
    .array(z.object({ userId: z.coerce.number().int().min(1), permit: appPermit }))
    .max(1000)
    .default([]),
});
export type SaveAppBody = z.infer<typeof saveAppBody>;

export const appCollectTypes = ['collect', 'subscribe'] as const;
export const appCollectBody = z.object({
  appIds: z
    .union([z.coerce.number().int().min(1), z.array(z.coerce.number().int().min(1)).min(1).max(1000)])
    .transform((v) => (Array.isArray(v) ? v : [v])),
  appCollectType: z.enum(appCollectTypes),
});
export type AppCollectBody = z.infer<typeof appCollectBody>;

/** POST /api/user/bind_app: gives one user a permit on apps (null permit removes it). */
export const bindAppBody = z.object({
  userId: z.coerce.number().int().min(1),
  appIds: z.array(z.coerce.number().int().min(1)).max(1000),
  permit: appPermit.nullable(),
});
export type BindAppBody = z.infer<typeof bindAppBody>;
export const userAppsQuery = z.object({ userId: z.coerce.number().int().min(1).optional() });
export const userApp = z.object({ appId: z.number(), appName: z.string(), path: z.string(), permit: appPermit });

/** SPEC §5 install password: 6-10 digits, not one repeated digit, not a run of 0123456789 or its reverse. */
export function installPasswordProblem(password: string): string | null {
  if (!password) return '请输入密码';
  if (!/^\d{6,10}$/.test(password)) return '密码必须是6-10位的数字';
  if (/^(\d)\1+$/.test(password)) return '密码强度不够';
  if ('0123456789'.includes(password) || '9876543210'.includes(password)) return '密码强度不够';
  return null;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Add-app form defaults of SPEC §3: path and publicPath 4 random letters, password 6 random digits. */
export function randomAppPath(random: () => number = Math.random): string {
  return Array.from({ length: 4 }, () => LETTERS[Math.floor(random() * LETTERS.length)]).join('');
}
export function randomInstallPassword(random: () => number = Math.random): string {
  for (;;) {
    const candidate = Array.from({ length: 6 }, () => String(Math.floor(random() * 10))).join('');
    if (installPasswordProblem(candidate) === null) return candidate;
  }
}
