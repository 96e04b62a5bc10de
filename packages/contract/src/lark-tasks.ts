import { z } from 'zod';
import { idParam } from './common.ts';

/** Chinese messages of the Lark side of tasks and bugs (task list, multi-dimensional table, sync). */
export const LarkTaskMessages = {
  notConfigured: '未配置飞书应用：请管理员设置 LARK_APP_ID 与 LARK_APP_SECRET',
  taskListExists: '该应用已关联飞书任务清单',
  tableExists: '该应用已关联飞书多维表格',
  notLinked: '该应用尚未关联飞书任务清单或多维表格',
  larkFailed: (detail: string) => `飞书接口调用失败：${detail}`,
  rateLimited: '飞书接口调用过于频繁，请稍后重试',
  unavailable: '飞书服务暂时不可用，请稍后重试',
  unreachable: '无法连接飞书，请稍后重试',
  badCredentials: '飞书应用凭证无效：请管理员检查 LARK_APP_ID 与 LARK_APP_SECRET',
  badRequest: (detail: string) => `飞书拒绝了这次修改：${detail}`,
  /** A record a refresh could not sync (its history note); the others synced. */
  recordFailed: (detail: string) => `与飞书同步失败：${detail}`,
  /** What a refresh says when some records could not be synced. */
  recordsFailed: (count: number) => `已刷新，但有 ${count} 条记录未能与飞书同步，原因见该记录的历史`,
  /** A local attachment whose file is no longer in the store. */
  fileMissing: (name: string) => `附件「${name}」在本系统的存储中找不到，请删除后重新上传`,
  /** What Lark's refusals mean for someone using the tracker, and what to grant. */
  larkCodes: {
    99991672:
      '飞书应用未开通任务或多维表格权限：请管理员在飞书开放平台为应用开通「任务」(task:task、task:tasklist、task:comment) 与「多维表格」(bitable:app) 权限并发布新版本',
    99991676: '飞书应用的凭证缺少所需权限：请管理员在飞书开放平台为应用开通「任务」与「多维表格」权限并发布新版本',
    99991679: '你尚未授权飞书任务权限：请重新用飞书登录并同意授权',
    99991673: '飞书应用在本企业不可用：请管理员在飞书管理后台启用应用',
    1470403: '飞书应用无权访问该任务或任务清单：请在飞书任务清单的「共享」中把本应用添加为可编辑成员',
    1470404: '飞书中的任务或任务清单已被删除',
    1470610: '负责人太多（飞书最多 50 人）',
    1470611: '关注人太多（飞书最多 50 人）',
    1254701: '飞书应用无权访问该多维表格：请在多维表格右上角「…」→「更多」→「添加文档应用」中添加本应用（可编辑）',
    1254301: '多维表格开启了高级权限：请在「高级权限」中给本应用一个可编辑的角色',
    1254304: '多维表格开启了高级权限：请在「高级权限」中给本应用一个可编辑的角色',
    1254702: '飞书云空间中的文件夹不存在',
    1254040: '飞书多维表格已被删除',
    1254041: '飞书多维表格中的数据表已被删除',
    1254043: '飞书多维表格中的记录已被删除',
    1254044: '飞书多维表格缺少所需字段，请不要删除或重命名同步的字段',
    1254103: '飞书多维表格的记录已达上限（20,000 条）',
  } as Record<number, string>,
} as const;

/** POST /api/lark_auth, create_task_list, create_bitable, lark_refresh: the app. */
export const larkAppBody = z.object({ appId: idParam });

/** POST /api/sync_comments: a task's comments both ways now. */
export const syncCommentsBody = z.object({
  taskGuid: z.string().min(1).max(64),
  syncType: z.literal('comment').default('comment'),
});

/** What /api/lark_auth answers: whether Lark is configured and reachable, and the app's links. */
export const larkAuthStatus = z.object({
  larkEnabled: z.boolean(),
  larkTaskListUrl: z.string().nullable(),
  larkTableUrl: z.string().nullable(),
  /** Why Lark cannot be used now (a missing grant, bad credentials …), null when it can. */
  problem: z.string().nullable(),
});
export type LarkAuthStatus = z.infer<typeof larkAuthStatus>;

/**
 * What a sync did: records pushed to Lark, taken from Lark, created from Lark, comments and attachments moved either
 * way, and records that could not be synced (each has a history note saying why).
 */
export const larkSyncCounts = z.object({
  pushed: z.number(),
  pulled: z.number(),
  imported: z.number(),
  comments: z.number(),
  attachments: z.number(),
  failed: z.number(),
});
export type LarkSyncCounts = z.infer<typeof larkSyncCounts>;
