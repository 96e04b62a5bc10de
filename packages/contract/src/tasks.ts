import { z } from 'zod';
import { idParam, intFromQuery, pageQuery } from './common.ts';

/** SPEC §3 Task/bug record: recordType task (Lark task list) or bug (multi-dimensional table). */
export const recordTypes = ['task', 'bug'] as const;
export type RecordType = (typeof recordTypes)[number];

export interface FieldOption {
  value: string;
  label: string;
}
const options = (pairs: Array<[string, string]>): FieldOption[] => pairs.map(([value, label]) => ({ value, label }));

/** SPEC §3 enumerations, with the labels the tracker shows; `field_list` answers these unless a linked Bitable says otherwise. */
export const TaskFieldDefaults = {
  status: options([
    ['not_started', '未开始'],
    ['in_progress', '进行中'],
    ['completed', '已完成'],
    ['stopped', '已停止'],
  ]),
  priority: options([
    ['high', '高'],
    ['middle', '中'],
    ['low', '低'],
  ]),
  bugStatus: options([
    ['new', '新建'],
    ['fixing', '修复中'],
    ['fixed', '已修复'],
    ['closed', '已关闭'],
    ['regression_failed', '回归失败'],
    ['as_designed', '设计如此'],
    ['reopened', '重新打开'],
    ['suspended', '挂起'],
    ['cannot_reproduce', '无法复现'],
  ]),
  bugSeverity: options([
    ['fatal', '致命'],
    ['high', '严重'],
    ['medium', '一般'],
    ['low', '轻微'],
  ]),
  bugPriority: options([
    ['urgent', '紧急'],
    ['high', '高'],
    ['medium', '中'],
    ['low', '低'],
  ]),
  bugType: options([
    ['functional', '功能问题'],
    ['UI', 'UI问题'],
    ['animation', '动画问题'],
    ['performance', '性能问题'],
    ['compatibility', '兼容性问题'],
    ['usability', '易用性问题'],
  ]),
} as const;

/** `GET /api/field_list`: option groups keyed by field name; moduleName lists the modules the app's bugs use. */
export const fieldGroups = z.object({
  status: z.array(z.object({ value: z.string(), label: z.string() })),
  priority: z.array(z.object({ value: z.string(), label: z.string() })),
  bugStatus: z.array(z.object({ value: z.string(), label: z.string() })),
  bugSeverity: z.array(z.object({ value: z.string(), label: z.string() })),
  bugPriority: z.array(z.object({ value: z.string(), label: z.string() })),
  bugType: z.array(z.object({ value: z.string(), label: z.string() })),
  moduleName: z.array(z.object({ value: z.string(), label: z.string() })),
});
export type FieldGroups = z.infer<typeof fieldGroups>;
export type FieldGroupName = keyof FieldGroups;

/** SPEC §4: a new task starts not_started with priority high, a new bug starts new. */
export const NEW_TASK_STATUS = 'not_started';
export const NEW_TASK_PRIORITY = 'high';
export const NEW_BUG_STATUS = 'new';
/** The task status that sets completedAt; the bug status that does. */
export const TASK_DONE_STATUS = 'completed';
export const BUG_DONE_STATUS = 'closed';

export const TASK_SUMMARY_MAX = 1000;
export const TASK_DESCRIPTION_MAX = 20_000;
export const TASK_COMMENT_MAX = 5000;
export const TASK_ATTACHMENTS_MAX = 20;
/** SPEC §7: task attachments are stored under this prefix, then 16 random characters and the extension. */
export const TASK_ATTACHMENT_PREFIX = 'lark_attachment/';

/** SPEC §5 Task form and the tracker's other messages. */
export const TaskMessages = {
  summaryRequired: '请输入!',
  assigneeRequired: (recordType: RecordType) => (recordType === 'task' ? '请选择负责人!' : '请选择指派给!'),
  timeRangeRequired: '请选择开始和结束时间!',
  timeRangeOrder: '结束时间不能早于开始时间',
  commentRequired: '请输入评论',
  commentDeleteConfirm: '请确认是否删除该评论?',
  recordNotFound: '任务不存在或您没有该应用的权限',
  commentNotFound: '评论不存在或已删除',
  notOwnComment: '只能修改或删除自己的评论',
  staleRecord: '该记录已被他人修改，请刷新后重试',
  unknownUser: (userId: number) => `用户不存在：${userId}`,
  badOption: (label: string, value: string) => `${label}不在可选项中：${value}`,
  badAttachment: '附件未上传完成或不属于您，请重新上传',
  attachmentKey: '附件不是任务附件，请通过任务附件上传',
  clientTokenReused: '该 clientToken 已用于另一条记录',
  deletedInLark: '该记录已在飞书中删除，不能再修改',
} as const;

/** Field names as the form labels them, for messages. */
export const TaskFieldLabels: Record<FieldGroupName, string> = {
  status: '状态',
  priority: '优先级',
  bugStatus: '缺陷状态',
  bugSeverity: '严重程度',
  bugPriority: '缺陷优先级',
  bugType: '缺陷类型',
  moduleName: '模块',
};

export const uploadFile = z.object({ s3Key: z.string().min(1).max(512), fileName: z.string().trim().min(1).max(255) });
export type UploadFile = z.infer<typeof uploadFile>;

const optionValue = z.string().trim().max(64);
const msTime = z.coerce.number().int().min(0).max(8_640_000_000_000_000);

/**
 * The create/edit form of SPEC §5 plus appId, clientToken and times in ms. Required fields are checked by
 * `taskFormProblem` so a script gets the form's own messages; the schema only refuses malformed values.
 */
export const taskFormBody = z.object({
  appId: idParam,
  recordType: z.enum(recordTypes),
  summary: z.string().max(TASK_SUMMARY_MAX).default(''),
  description: z.string().max(TASK_DESCRIPTION_MAX).default(''),
  assigneeIds: z.array(idParam).max(50).default([]),
  startAt: msTime.nullable().optional(),
  due: msTime.nullable().optional(),
  priority: optionValue.nullable().optional(),
  status: optionValue.nullable().optional(),
  moduleName: z.string().trim().max(200).nullable().optional(),
  bugStatus: optionValue.nullable().optional(),
  bugType: optionValue.nullable().optional(),
  bugSeverity: optionValue.nullable().optional(),
  bugPriority: optionValue.nullable().optional(),
  bugRemark: z.string().max(TASK_DESCRIPTION_MAX).nullable().optional(),
  /** Task attachments (recordType task). */
  attachFiles: z.array(uploadFile).max(TASK_ATTACHMENTS_MAX).optional(),
  /** Bug attachments (recordType bug). */
  bugFiles: z.array(uploadFile).max(TASK_ATTACHMENTS_MAX).optional(),
});
export type TaskFormBody = z.input<typeof taskFormBody>;
export type TaskFormInput = z.infer<typeof taskFormBody>;

export const createTaskBody = taskFormBody.extend({
  /** The same token twice (a double click, a retried request) answers the record made the first time. */
  clientToken: z
    .string()
    .trim()
    .min(8)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
});
export type CreateTaskBody = z.input<typeof createTaskBody>;

export const updateTaskBody = taskFormBody.extend({
  guid: z.string().min(1).max(64),
  /** When given, the edit is refused (409) if the record changed since it was read. */
  recordVersion: intFromQuery.min(1).optional(),
  clientToken: z.string().max(64).optional(),
});
export type UpdateTaskBody = z.input<typeof updateTaskBody>;

/** SPEC §5 Task form: the first missing field's message, or null. */
export function taskFormProblem(form: {
  recordType: RecordType;
  summary?: string;
  assigneeIds?: readonly number[];
  startAt?: number | null;
  due?: number | null;
}): string | null {
  if (!form.summary?.trim()) return TaskMessages.summaryRequired;
  if (!form.assigneeIds?.length) return TaskMessages.assigneeRequired(form.recordType);
  if (form.startAt === undefined || form.startAt === null || form.due === undefined || form.due === null)
    return TaskMessages.timeRangeRequired;
  if (form.due < form.startAt) return TaskMessages.timeRangeOrder;
  return null;
}

export const tasksQuery = pageQuery.extend({
  appId: idParam,
  /** '' lists both. */
  recordType: z.union([z.enum(recordTypes), z.literal('')]).default(''),
  /** Task status or bug status. */
  status: z.string().trim().max(64).optional(),
  assigneeId: idParam.optional(),
  /** Part of the summary, any letter case. */
  keyword: z.string().trim().max(100).optional(),
});
export type TasksQuery = z.input<typeof tasksQuery>;

export const taskUser = z.object({ userId: z.number(), name: z.string() });
export const taskFile = z.object({
  s3Key: z.string(),
  fileName: z.string(),
  name: z.string(),
  url: z.string(),
  fileToken: z.string().nullable(),
});
export type TaskFile = z.infer<typeof taskFile>;

export const taskRecord = z.object({
  id: z.number(),
  guid: z.string(),
  appId: z.number(),
  recordType: z.enum(recordTypes),
  summary: z.string(),
  description: z.string(),
  assigneeIds: z.array(z.number()),
  assignees: z.array(taskUser),
  creatorId: z.number().nullable(),
  creatorName: z.string().nullable(),
  startAt: z.number().nullable(),
  due: z.number().nullable(),
  completedAt: z.number().nullable(),
  priority: z.string().nullable(),
  status: z.string().nullable(),
  moduleName: z.string().nullable(),
  bugStatus: z.string().nullable(),
  bugType: z.string().nullable(),
  bugSeverity: z.string().nullable(),
  bugPriority: z.string().nullable(),
  bugRemark: z.string().nullable(),
  attachFiles: z.array(taskFile),
  bugAttachFiles: z.array(taskFile),
  commentCount: z.number(),
  recordVersion: z.number(),
  larkGuid: z.string().nullable(),
  larkRecordId: z.string().nullable(),
  /** The recordVersion last in step with Lark (null before the first sync): a newer larkSyncFailed in the history is still unresolved. */
  larkSyncedVersion: z.number().nullable(),
  /** Deleted in Lark: 'removed' (out of the list, read-only) or 'kept' (an unsynced local edit kept; no longer synced); null otherwise. */
  larkDeleted: z.enum(['removed', 'kept']).nullable(),
  clientToken: z.string().nullable(),
  /** The build a tester's feedback was sent from (null for other records). */
  versionId: z.number().nullable(),
  createTime: z.number(),
  updateTime: z.number(),
});
export type TaskRecord = z.infer<typeof taskRecord>;

export const tasksExtraInfo = z.object({ bugCount: z.number(), taskCount: z.number() });
export type TasksExtraInfo = z.infer<typeof tasksExtraInfo>;

export const taskGuidQuery = z.object({ taskGuid: z.string().min(1).max(64) });

export const taskComment = z.object({
  id: z.number(),
  content: z.string(),
  creatorId: z.number().nullable(),
  creatorName: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type TaskComment = z.infer<typeof taskComment>;

const commentContent = z.string().max(TASK_COMMENT_MAX, `评论不能超过${TASK_COMMENT_MAX}个字符`);
export const createCommentBody = z.object({ taskGuid: z.string().min(1).max(64), content: commentContent });
export const updateCommentBody = z.object({ id: idParam, content: commentContent });
export const deleteCommentBody = z.object({ id: idParam });

/** `GET /api/all_users`: people an item can be assigned to (SPEC §3 messaging-suite user shape). */
export const assignableUser = z.object({ userId: z.number(), name: z.string(), avatar: z.string().nullable() });
export type AssignableUser = z.infer<typeof assignableUser>;

/** `GET /api/task_view`: whether the app shows the task view, and its Lark links. */
export const taskViewSetting = z.object({
  appId: z.number(),
  taskViewEnabled: z.boolean(),
  /** Whether the server has a Lark app configured (the Lark buttons are disabled otherwise). */
  larkEnabled: z.boolean(),
  larkTaskListUrl: z.string().nullable(),
  larkTableUrl: z.string().nullable(),
});
export type TaskViewSetting = z.infer<typeof taskViewSetting>;
export const saveTaskViewBody = z.object({ appId: idParam, taskViewEnabled: z.boolean() });

/** One change of a record (who, when, field, old → new); `GET /api/task_history`. */
export const taskHistoryEntry = z.object({
  id: z.number(),
  recordVersion: z.number(),
  actorId: z.number().nullable(),
  actorName: z.string().nullable(),
  source: z.enum(['local', 'lark']),
  field: z.string(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  createTime: z.number(),
});
export type TaskHistoryEntry = z.infer<typeof taskHistoryEntry>;
