import { z } from 'zod';
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
