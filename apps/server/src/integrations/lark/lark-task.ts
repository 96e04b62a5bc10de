import { LarkApiError, type LarkClient } from './lark-client.ts';
import { downloadOf, StreamedForm, type LarkDownload, type StreamedFile } from './lark-files.ts';

/** Task v2 attachments/upload: "每个附件尺寸不超过50MB" (the SDK's doc of the call); there is no multipart upload for them. */
export const TASK_ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;

/** Lark Task v2 (contract §D) over the tenant token of lark-client.ts: renewal, rate-limit waits and errors there. */
export interface LarkTime {
  timestamp: string;
  is_all_day: boolean;
}

export interface LarkTaskMember {
  id: string;
  type: 'user' | 'app' | 'chat';
  role: string;
  name?: string;
}

export interface LarkTaskCustomValue {
  guid: string;
  name?: string;
  type?: string;
  single_select_value?: string;
  text_value?: string;
  number_value?: string;
  datetime_value?: string;
}

export interface LarkTask {
  guid: string;
  summary: string;
  description: string;
  start?: LarkTime;
  due?: LarkTime;
  /** "0" while not done. */
  completed_at: string;
  created_at: string;
  updated_at: string;
  members: LarkTaskMember[];
  custom_fields: LarkTaskCustomValue[];
  tasklists: Array<{ tasklist_guid: string }>;
  url: string;
}

export interface LarkTasklist {
  guid: string;
  name: string;
  url: string;
  members: LarkTaskMember[];
}

export interface LarkTaskComment {
  id: string;
  content: string;
  creator: { id: string; type: 'user' | 'app' };
  created_at: string;
  updated_at: string;
}

export interface LarkCustomField {
  guid: string;
  name: string;
  type: string;
  options: Array<{ guid: string; name: string }>;
}

export interface LarkTaskAttachment {
  guid: string;
  name: string;
  size: number;
  url?: string;
}

/** What a create or patch may carry. */
export interface LarkTaskFields {
  summary?: string;
  description?: string;
  start?: LarkTime | null;
  due?: LarkTime | null;
  completed_at?: string;
  custom_fields?: Array<{ guid: string; single_select_value?: string; text_value?: string }>;
}

const PAGE_SIZE = 100;
/** A list is cut after this many pages (10,000 items): enough for one app's tracker. */
const MAX_PAGES = 100;

/** A ms time as Lark's `{timestamp, is_all_day:false}`; null stays null. */
export function larkTime(ms: number | null | undefined): LarkTime | null {
  return ms === null || ms === undefined ? null : { timestamp: String(ms), is_all_day: false };
}

export function createLarkTaskClient(lark: LarkClient) {
  const base = '/open-apis/task/v2';

  async function allPages<T>(path: string, query: Record<string, string | number | undefined>): Promise<T[]> {
    const out: T[] = [];
    let pageToken: string | undefined;
    for (let n = 0; n < MAX_PAGES; n += 1) {
      const data = await lark.request('GET', path, {
        query: { ...query, page_size: PAGE_SIZE, page_token: pageToken },
      });
      out.push(...((data.items as T[] | undefined) ?? []));
      if (!data.has_more || typeof data.page_token !== 'string') break;
      pageToken = data.page_token;
    }
    return out;
  }

  return {
    /** POST /tasklists: owned by our app; `editors` (open_ids) may edit it in Lark. */
    async createTasklist(name: string, editors: string[]): Promise<LarkTasklist> {
      const data = await lark.request('POST', `${base}/tasklists`, {
        body: { name, members: editors.map((id) => ({ id, type: 'user', role: 'editor' })) },
      });
      return data.tasklist as LarkTasklist;
    },

    async getTasklist(guid: string): Promise<LarkTasklist> {
      return (await lark.request('GET', `${base}/tasklists/${encodeURIComponent(guid)}`)).tasklist as LarkTasklist;
    },

    /** Summaries of every task in the tasklist (GET /tasklists/:guid/tasks, all pages). */
    listTasklistTasks(guid: string): Promise<Array<Pick<LarkTask, 'guid' | 'summary' | 'completed_at'>>> {
      return allPages(`${base}/tasklists/${encodeURIComponent(guid)}/tasks`, {});
    },

    /** POST /custom_fields: a single-select field on the tasklist, one option per name. */
    async createSelectField(tasklistGuid: string, name: string, options: string[]): Promise<LarkCustomField> {
      const data = await lark.request('POST', `${base}/custom_fields`, {
        body: {
          resource_type: 'tasklist',
          resource_id: tasklistGuid,
          name,
          type: 'single_select',
          single_select_setting: { options: options.map((o) => ({ name: o })) },
        },
      });
      return presentField(data.custom_field as RawField);
    },

    async listCustomFields(tasklistGuid: string): Promise<LarkCustomField[]> {
      const raw = await allPages<RawField>(`${base}/custom_fields`, {
        resource_type: 'tasklist',
        resource_id: tasklistGuid,
      });
      return raw.map(presentField);
    },

    /** POST /tasks in the tasklist; `clientToken` (10–100 characters) makes a retried create answer the same task. */
    async createTask(
      input: LarkTaskFields & { tasklistGuid: string; assignees: string[]; clientToken: string },
    ): Promise<LarkTask> {
      const { tasklistGuid, assignees, clientToken, start, due, ...fields } = input;
      const data = await lark.request('POST', `${base}/tasks`, {
        body: {
          ...fields,
          ...(start ? { start } : {}),
          ...(due ? { due } : {}),
          client_token: clientToken,
          tasklists: [{ tasklist_guid: tasklistGuid }],
          members: assignees.map((id) => ({ id, type: 'user', role: 'assignee' })),
        },
      });
      return data.task as LarkTask;
    },

    async getTask(guid: string): Promise<LarkTask> {
      return (await lark.request('GET', `${base}/tasks/${encodeURIComponent(guid)}`)).task as LarkTask;
    },

    /** PATCH /tasks/:guid: every key of `fields` is listed in update_fields; a null or absent value clears it. */
    async patchTask(guid: string, fields: LarkTaskFields): Promise<LarkTask> {
      const updateFields = Object.keys(fields);
      const task = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined));
      return (
        await lark.request('PATCH', `${base}/tasks/${encodeURIComponent(guid)}`, {
          body: { task, update_fields: updateFields },
        })
      ).task as LarkTask;
    },

    async deleteTask(guid: string): Promise<void> {
      await lark.request('DELETE', `${base}/tasks/${encodeURIComponent(guid)}`);
    },

    async addAssignees(guid: string, openIds: string[]): Promise<LarkTask> {
      return (
        await lark.request('POST', `${base}/tasks/${encodeURIComponent(guid)}/add_members`, {
          body: { members: openIds.map((id) => ({ id, type: 'user', role: 'assignee' })) },
        })
      ).task as LarkTask;
    },

    async removeAssignees(guid: string, openIds: string[]): Promise<LarkTask> {
      return (
        await lark.request('POST', `${base}/tasks/${encodeURIComponent(guid)}/remove_members`, {
          body: { members: openIds.map((id) => ({ id, type: 'user', role: 'assignee' })) },
        })
      ).task as LarkTask;
    },

    /** Every comment of a task, oldest first. */
    listComments(taskGuid: string): Promise<LarkTaskComment[]> {
      return allPages(`${base}/comments`, { resource_type: 'task', resource_id: taskGuid, direction: 'asc' });
    },

    async createComment(taskGuid: string, content: string): Promise<LarkTaskComment> {
      return (
        await lark.request('POST', `${base}/comments`, {
          body: { content, resource_type: 'task', resource_id: taskGuid },
        })
      ).comment as LarkTaskComment;
    },

    async updateComment(id: string, content: string): Promise<LarkTaskComment> {
      return (
        await lark.request('PATCH', `${base}/comments/${encodeURIComponent(id)}`, {
          body: { comment: { content }, update_fields: ['content'] },
        })
      ).comment as LarkTaskComment;
    },

    async deleteComment(id: string): Promise<void> {
      await lark.request('DELETE', `${base}/comments/${encodeURIComponent(id)}`);
    },

    /** POST /attachments/upload (multipart, one file, at most TASK_ATTACHMENT_MAX_BYTES): answers the attachment with its guid. */
    async uploadAttachment(taskGuid: string, file: StreamedFile): Promise<LarkTaskAttachment> {
      const form = new StreamedForm(
        [
          ['resource_type', 'task'],
          ['resource_id', taskGuid],
        ],
        'file',
        file,
      );
      const items = (await lark.request('POST', `${base}/attachments/upload`, { body: form })).items as
        | LarkTaskAttachment[]
        | undefined;
      const item = items?.[0];
      if (!item) throw new LarkApiError(200, -1, '飞书未返回上传的附件');
      return item;
    },

    /** The bytes behind an attachment's download link as a stream (links are pre-signed: no token). */
    async download(url: string): Promise<LarkDownload> {
      const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
      if (!response.ok) {
        await response.body?.cancel();
        throw new LarkApiError(response.status, -1, `下载飞书附件失败（HTTP ${response.status}）`);
      }
      return downloadOf(response);
    },

    async deleteAttachment(guid: string): Promise<void> {
      await lark.request('DELETE', `${base}/attachments/${encodeURIComponent(guid)}`);
    },

    /** A task's attachments, each with a download link (valid 3 minutes, 3 downloads). */
    listAttachments(taskGuid: string): Promise<LarkTaskAttachment[]> {
      return allPages(`${base}/attachments`, { resource_type: 'task', resource_id: taskGuid });
    },
  };
}
export type LarkTaskClient = ReturnType<typeof createLarkTaskClient>;

interface RawField {
  guid: string;
  name: string;
  type: string;
  single_select_setting?: { options?: Array<{ guid: string; name: string }> };
}

function presentField(raw: RawField): LarkCustomField {
  return {
    guid: raw.guid,
    name: raw.name,
    type: raw.type,
    options: (raw.single_select_setting?.options ?? []).map((o) => ({ guid: o.guid, name: o.name })),
  };
}
