import type {
  AssignableUser,
  CreateTaskBody,
  FieldGroups,
  GetSignedUrlResult,
  LarkSyncCounts,
  RecordType,
  TaskComment,
  TaskHistoryEntry,
  TaskRecord,
  TasksExtraInfo,
  TaskViewSetting,
  UpdateTaskBody,
} from '@release/contract';
import { api } from './client.ts';

export interface TaskListParams {
  appId: number;
  recordType: RecordType;
  pageNo: number;
  pageSize: number;
}

export interface TaskPage {
  rows: TaskRecord[];
  total: number;
  extraInfo: TasksExtraInfo;
}

/** Silent: an app the page cannot show is told once by the page itself; without the setting there is no task view. */
export async function fetchTaskView(appId: number, signal?: AbortSignal): Promise<TaskViewSetting> {
  return (await api.get<TaskViewSetting>('/api/task_view', { appId }, { signal, silent: true })).data;
}

/** Admins turn the task view of an app on or off. */
export async function saveTaskView(appId: number, taskViewEnabled: boolean): Promise<TaskViewSetting> {
  return (await api.post<TaskViewSetting>('/api/task_view', { appId, taskViewEnabled })).data;
}

export async function fetchTasks(params: TaskListParams, signal?: AbortSignal): Promise<TaskPage> {
  const response = await api.post<TaskRecord[], { total?: number; extraInfo?: TasksExtraInfo }>('/api/tasks', params, {
    signal,
  });
  return {
    rows: response.data,
    total: response.total ?? response.data.length,
    extraInfo: response.extraInfo ?? { taskCount: 0, bugCount: 0 },
  };
}

export async function createTask(body: CreateTaskBody): Promise<TaskRecord> {
  return (await api.post<TaskRecord>('/api/create_task', body)).data;
}

export async function updateTask(body: UpdateTaskBody): Promise<TaskRecord> {
  return (await api.post<TaskRecord>('/api/update_task', body)).data;
}

/** Field options; a failure is silent (SPEC §8) and the form falls back to empty pickers. */
export async function fetchFieldGroups(appId: number, signal?: AbortSignal): Promise<FieldGroups> {
  return (await api.get<FieldGroups>('/api/field_list', { appId }, { signal, silent: true })).data;
}

export async function fetchAssignableUsers(signal?: AbortSignal): Promise<AssignableUser[]> {
  return (await api.get<AssignableUser[]>('/api/all_users', undefined, { signal })).data;
}

/** A record's history; silent (the drawer only reads it for a Lark sync failure to show). */
export async function fetchTaskHistory(taskGuid: string, signal?: AbortSignal): Promise<TaskHistoryEntry[]> {
  return (await api.get<TaskHistoryEntry[]>('/api/task_history', { taskGuid }, { signal, silent: true })).data;
}

export async function fetchComments(taskGuid: string, signal?: AbortSignal): Promise<TaskComment[]> {
  return (await api.get<TaskComment[]>('/api/comments', { taskGuid }, { signal })).data;
}

export async function createComment(taskGuid: string, content: string): Promise<void> {
  await api.post<unknown>('/api/create_comment', { taskGuid, content });
}

export async function updateComment(id: number, content: string): Promise<void> {
  await api.post<unknown>('/api/update_comment', { id, content });
}

export async function deleteComment(id: number): Promise<void> {
  await api.post<unknown>('/api/delete_comment', { id });
}

/** Names a task attachment's object: lark_attachment/ + 16 random characters + extension. */
export async function issueAttachmentKey(fileName: string, signal: AbortSignal): Promise<string> {
  const result = (
    await api.post<GetSignedUrlResult>(
      '/api/get_signed_url',
      { attachFileNames: [fileName], scene: 'lark_attachment' },
      { signal, silent: true },
    )
  ).data;
  const key = result.attachFiles[0]?.fileKey;
  if (!key) throw new Error('no file key');
  return key;
}

/** POST /api/lark_refresh: syncs a linked app's tasks and bugs with Lark now, both ways. */
export async function refreshFromLark(appId: number): Promise<LarkSyncCounts> {
  return (await api.post<LarkSyncCounts>('/api/lark_refresh', { appId }, { timeoutMs: 60_000 })).data;
}

/** Links the app to a new Lark task list or multi-dimensional table (the Lark sync answers these). */
export async function createLarkTaskList(appId: number): Promise<void> {
  await api.post<unknown>('/api/create_task_list', { appId }, { timeoutMs: 60_000 });
}

export async function createLarkBitable(appId: number): Promise<void> {
  await api.post<unknown>('/api/create_bitable', { appId }, { timeoutMs: 60_000 });
}
