import { z } from 'zod';
import { intFromQuery } from './common.ts';
import { chatEnvs } from './uploads.ts';
import { saveWorkflowBody, workflowRow } from './workflows.ts';

/** SPEC §3 Notification scopes. chat = the app's group for chatEnv, commit = the workflow's group robot. */
export const receiveTypes = ['commit', 'self', 'chat', 'view_app', 'subscribe', 'user_ids'] as const;
export type ReceiveType = (typeof receiveTypes)[number];

export const receiverKinds = ['lark-bot', 'lark-im', 'wecom-robot'] as const;
export type ReceiverKind = (typeof receiverKinds)[number];
export const deliveryStatuses = ['pending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const MessagingMessages = {
  /** SPEC §8 success toast ("message pushed to the team messaging tool"). */
  pushed: '消息已推送到飞书/企业微信',
  nothingToSend: '请选择要推送的提交或安装包',
  noEndPoint: '请选择想要推送的日志截止点',
  noCommits: '所选范围内没有可推送的日志',
  /** Said with where the robot is set: the workflow's, or (chat scopes) the app's group robots. */
  noRobot: '未设置群机器人地址：请在“编辑工作流 → 机器人地址”中填写群机器人的 Webhook 地址后再发送',
  noDevChatRobot: '未设置开发群机器人：请管理员在“应用设置 → 开发群机器人”中填写后再发送',
  noProdChatRobot: '未设置正式群机器人：请管理员在“应用设置 → 正式群机器人”中填写后再发送',
  releaseGroupAdminOnly: '只有管理员可以推送到发布群',
  scopeAdminOnly: '只有管理员可以推送给订阅者或指定用户',
  wecomPersonal: '企业微信群机器人只能推送到群，发给个人请使用飞书',
  larkNotConfigured: '未配置飞书应用（LARK_APP_ID），无法发送给个人',
  larkNotBound: '未绑定飞书账号',
  robotUrlInvalid:
    '机器人地址必须是飞书自定义机器人（/open-apis/bot/v2/hook/…）或企业微信群机器人（/cgi-bin/webhook/send?key=…）的地址',
  robotUrlRefused: '机器人地址不在允许的飞书/企业微信地址内，已拒绝发送',
  interrupted: '发送过程中服务中断，结果未知；为避免重复推送未自动重试',
  deliveryNotFound: '推送记录不存在',
  retryOnlyFailed: '只有失败的推送可以重试',
  noRecipients: '没有可推送的接收人（接收人未绑定飞书账号）',
  workflowNotFound: '工作流不存在',
  commitNotFound: '日志不存在',
  versionNotFound: '安装包不存在',
  badRange: '结束时间必须晚于开始时间',
} as const;

/** SPEC §3 commit message types with their Chinese labels (the same table as the web's commit list). */
export const COMMIT_TYPE_LABELS: Record<string, string> = {
  feat: '新增/变更',
  fix: 'Bug修改',
  docs: '文档',
  doc: '文档',
  perf: '性能优化',
  style: '代码样式',
  refactor: '代码重构',
  test: '测试相关',
  chore: '构建过程或辅助工具的变动',
  revert: '回退',
  build: '构建',
  other: '其他改动',
};

const optionalId = intFromQuery.min(1).optional().nullable();

/** POST /api/send_lark_message and /api/send_wecom_message (SPEC §7). */
export const sendMessageBody = z
  .object({
    appId: intFromQuery.min(1),
    receiveType: z.enum(receiveTypes),
    /** The update item's id (as in bind_commit). */
    commitId: optionalId,
    workflowId: optionalId,
    branch: z.string().trim().max(255).optional().nullable(),
    appVersionId: optionalId,
    chatEnv: z.enum(chatEnvs).optional().nullable(),
    /** The app's package by its index number (when appVersionId is not given). */
    indexNo: optionalId,
    /** receiveType user_ids: local user ids. */
    userIds: z.array(intFromQuery.min(1)).max(200).optional(),
  })
  .superRefine((b, ctx) => {
    if (!b.commitId && !b.appVersionId && !b.indexNo)
      ctx.addIssue({ code: 'custom', path: ['commitId'], message: MessagingMessages.nothingToSend });
    if (b.receiveType === 'commit' && !b.workflowId)
      ctx.addIssue({ code: 'custom', path: ['workflowId'], message: '参数错误：workflowId 必填' });
    if (b.receiveType === 'user_ids' && !b.userIds?.length)
      ctx.addIssue({ code: 'custom', path: ['userIds'], message: '请选择接收人' });
  });
export type SendMessageBody = z.infer<typeof sendMessageBody>;

/** POST /api/workflow/send_multi_commits: chosen items, or every item of a time range (all: true). */
export const sendMultiCommitsBody = z
  .object({
    appId: intFromQuery.min(1),
    workflowId: intFromQuery.min(1),
    commitIds: z.array(intFromQuery.min(1)).max(1000).optional(),
    indexNo: optionalId,
    startTime: intFromQuery.min(0).optional().nullable(),
    endTime: intFromQuery.min(0).optional().nullable(),
    all: z.boolean().optional(),
    branch: z.string().trim().max(255).optional().nullable(),
    /** Where to (default commit: the workflow's group robot). */
    receiveType: z.enum(receiveTypes).optional(),
    chatEnv: z.enum(chatEnvs).optional().nullable(),
    userIds: z.array(intFromQuery.min(1)).max(200).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.commitIds?.length) return;
    if (!b.all) ctx.addIssue({ code: 'custom', path: ['commitIds'], message: MessagingMessages.nothingToSend });
    else if (b.startTime == null || b.endTime == null)
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: MessagingMessages.noEndPoint });
  });
export type SendMultiCommitsBody = z.infer<typeof sendMultiCommitsBody>;

/** A day as `YYYY-MM-DD` (China time, UTC+8) or epoch milliseconds. */
const dayOrMs = z.union([intFromQuery.min(0), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')]);

/** POST /api/workflow/send_today_logs: the items of [startDate, nextDate) (SPEC §7 "send today's logs"). */
export const sendTodayLogsBody = z.object({
  appId: intFromQuery.min(1),
  workflowId: intFromQuery.min(1),
  startDate: dayOrMs,
  nextDate: dayOrMs,
  branch: z.string().trim().max(255).optional().nullable(),
  receiveType: z.enum(receiveTypes).optional(),
  chatEnv: z.enum(chatEnvs).optional().nullable(),
  userIds: z.array(intFromQuery.min(1)).max(200).optional(),
});
export type SendTodayLogsBody = z.infer<typeof sendTodayLogsBody>;

/** `YYYY-MM-DD` at 00:00 China time, or the milliseconds as given. */
export function dayStartMs(value: number | string): number {
  if (typeof value === 'number') return value;
  return Date.parse(`${value}T00:00:00+08:00`);
}

export const deliveryRow = z.object({
  id: z.number(),
  appId: z.number(),
  appName: z.string().nullable(),
  workflowId: z.number().nullable(),
  receiverKind: z.enum(receiverKinds),
  /** The destination with its credential masked, or the Lark user's name. */
  target: z.string(),
  title: z.string(),
  status: z.enum(deliveryStatuses),
  /** The receiver's own code and message (Lark `code`/`msg`, WeCom `errcode`/`errmsg`), or ours. */
  receiverCode: z.number().nullable(),
  receiverMessage: z.string().nullable(),
  attempts: z.number(),
  jobId: z.number().nullable(),
  requestedBy: z.string().nullable(),
  createTime: z.number(),
  sentTime: z.number().nullable(),
});
export type DeliveryRow = z.infer<typeof deliveryRow>;

export const sendResult = z.object({
  deliveryIds: z.array(z.number()),
  deliveries: z.array(deliveryRow),
  /** People in the scope who cannot be reached (no Lark account linked): nothing was queued for them. */
  skipped: z.array(z.string()),
});
export type SendResult = z.infer<typeof sendResult>;

export const deliveryListQuery = z.object({
  appId: intFromQuery.min(1).optional(),
  status: z.enum(deliveryStatuses).optional(),
  pageNo: intFromQuery.min(1).default(1),
  pageSize: intFromQuery.min(1).max(100).default(20),
});
export type DeliveryListQuery = z.infer<typeof deliveryListQuery>;

/** GET /api/deliveries/mine?ids=1,2: the caller's own deliveries (the toast shows a failure's reason). */
export const myDeliveriesQuery = z.object({ ids: z.string().regex(/^\d+(,\d+){0,99}$/, 'ids 格式不正确') });
export const retryDeliveryBody = z.object({ id: intFromQuery.min(1) });

/**
 * The workflow modal's body with the Lark bot's signing secret (签名校验), which the spec does not list:
 * write-only; undefined keeps the stored one, '' or null removes it.
 */
export const saveWorkflowWithRobotBody = saveWorkflowBody.safeExtend({
  robotSecret: z.string().trim().max(128).optional().nullable(),
});
export type SaveWorkflowWithRobotBody = z.infer<typeof saveWorkflowWithRobotBody>;
/** A workflow tab as listed, telling editors whether a signing secret is stored (never the secret). */
export const workflowRowWithRobot = workflowRow.extend({ hasRobotSecret: z.boolean() });
export type WorkflowRowWithRobot = z.infer<typeof workflowRowWithRobot>;

/** What a pushed message keeps of an item's texts (the server cuts them; the send previews show the same). */
export const SENT_SUBJECT_MAX = 200;
export const SENT_AUTHOR_MAX = 32;
/** The committer shown for an item without one. */
export const SENT_NO_AUTHOR = '未知';

/** At most `max` characters (code points: no emoji or CJK character is split), with … when cut. */
export function clipText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}
