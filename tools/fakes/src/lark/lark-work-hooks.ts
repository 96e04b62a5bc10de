import { controlRoute, requireString } from '../shared/control.ts';
import type { FakeResponse, RouteDef } from '../shared/http-server.ts';
import type { Principal } from './auth.ts';
import { BitableError, presentRecord } from './bitable-cells.ts';
import type { BitableApp, BitableStore, BitableTable } from './bitable-state.ts';
import type { LarkContext } from './lark-context.ts';
import { addRecord, findRecord, writeFields } from './routes/bitable-records.routes.ts';
import { addComment, ownComment } from './routes/task-comments.routes.ts';
import { patchTask } from './routes/task.routes.ts';
import { presentTask, TaskError } from './task-common.ts';
import type { FakeTaskComment, TaskStore } from './task-state.ts';

/** What a Lark user does in the Task and Bitable apps, for tests (checked like the API: access, values). */
export interface LarkWorkHooks {
  /** Edits a task as the user: `task` holds the new values, `updateFields` names them (as PATCH). */
  editTask(input: {
    openId: string;
    taskGuid: string;
    task: Record<string, unknown>;
    updateFields: string[];
  }): Record<string, unknown>;
  commentOnTask(input: { openId: string; taskGuid: string; content: string }): FakeTaskComment;
  editComment(input: { openId: string; commentId: string; content: string }): FakeTaskComment;
  deleteComment(input: { openId: string; commentId: string }): void;
  deleteTask(input: { openId: string; taskGuid: string }): void;
  /** The tasklist's owner shares it (role editor or viewer), or takes it away with role null. */
  shareTasklist(input: {
    tasklistGuid: string;
    id: string;
    type?: 'user' | 'app';
    role: 'editor' | 'viewer' | null;
  }): void;
  /** Writes record cells (keyed by field name) as the user; a new select name creates its option. */
  editRecord(input: {
    openId: string;
    appToken: string;
    tableId: string;
    recordId: string;
    fields: Record<string, unknown>;
  }): Record<string, unknown>;
  addRecord(input: {
    openId: string;
    appToken: string;
    tableId: string;
    fields: Record<string, unknown>;
  }): Record<string, unknown>;
  deleteRecord(input: { openId: string; appToken: string; tableId: string; recordId: string }): void;
  /** Adds an option to a select field from the field settings. */
  addSelectOption(input: { appToken: string; tableId: string; fieldName: string; name: string }): {
    id: string;
    name: string;
  };
  /** The base's owner adds (or with `remove`, removes) a collaborator: an app id or an open_id. */
  shareBase(input: { appToken: string; id: string; remove?: boolean }): void;
}

function rethrow(error: unknown): never {
  if (error instanceof TaskError || error instanceof BitableError) {
    const body = (error.response as FakeResponse).body as { code: number; msg: string };
    throw new Error(`${body.code}: ${body.msg}`);
  }
  throw error;
}

export function larkWorkHooks(ctx: LarkContext, appId: () => string): LarkWorkHooks {
  const userOf = (openId: string): Principal => {
    if (!ctx.state.users.has(openId)) throw new Error(`unknown user ${openId}`);
    return { kind: 'user', appId: appId(), openId, scopes: [], token: '' };
  };
  const base = (appToken: string, openId?: string): BitableApp => {
    const app = ctx.bitable.apps.get(appToken);
    if (!app) throw new Error(`unknown base ${appToken}`);
    if (openId && !app.collaborators.has(openId)) throw new Error(`1254701: ${openId} may not use base ${appToken}`);
    return app;
  };
  const table = (appToken: string, tableId: string, openId?: string): BitableTable => {
    const found = base(appToken, openId).tables.find((t) => t.table_id === tableId);
    if (!found) throw new Error(`unknown table ${tableId}`);
    return found;
  };
  const guard = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      return rethrow(error);
    }
  };
  return {
    editTask: (i) =>
      guard(() =>
        presentTask(ctx, 'open_id', patchTask(ctx, userOf(i.openId), 'open_id', i.taskGuid, i.task, i.updateFields)),
      ),
    commentOnTask: (i) => guard(() => addComment(ctx, userOf(i.openId), i.taskGuid, i.content)),
    editComment: (i) =>
      guard(() => {
        const comment = ownComment(ctx, userOf(i.openId), i.commentId);
        comment.content = i.content;
        comment.updated_at = String(Math.max(ctx.clock.now(), Number(comment.updated_at) + 1));
        return comment;
      }),
    deleteComment: (i) =>
      guard(() => {
        ownComment(ctx, userOf(i.openId), i.commentId).deleted = true;
      }),
    deleteTask: (i) =>
      guard(() => {
        const task = ctx.tasks.tasks.get(i.taskGuid);
        if (!task || task.deleted) throw new Error(`unknown task ${i.taskGuid}`);
        userOf(i.openId);
        task.deleted = true;
      }),
    shareTasklist(i) {
      const list = ctx.tasks.tasklists.get(i.tasklistGuid);
      if (!list) throw new Error(`unknown tasklist ${i.tasklistGuid}`);
      list.members = list.members.filter((m) => m.id !== i.id);
      if (i.role) list.members.push({ id: i.id, type: i.type ?? 'user', role: i.role });
    },
    editRecord: (i) =>
      guard(() => {
        const t = table(i.appToken, i.tableId, i.openId);
        const record = findRecord(t, i.recordId);
        writeFields(ctx, t, record, i.fields, userOf(i.openId), 'open_id');
        return presentRecord(ctx, t, record, 'open_id', { automatic: true });
      }),
    addRecord: (i) =>
      guard(() => {
        const t = table(i.appToken, i.tableId, i.openId);
        return presentRecord(ctx, t, addRecord(ctx, t, i.fields, userOf(i.openId), 'open_id'), 'open_id', {
          automatic: true,
        });
      }),
    deleteRecord: (i) =>
      guard(() => {
        const t = table(i.appToken, i.tableId, i.openId);
        const record = findRecord(t, i.recordId);
        t.records = t.records.filter((r) => r !== record);
      }),
    addSelectOption(i) {
      const field = table(i.appToken, i.tableId).fields.find((f) => f.field_name === i.fieldName);
      if (!field || (field.type !== 3 && field.type !== 4)) throw new Error(`no select field ${i.fieldName}`);
      field.property ??= {};
      field.property.options ??= [];
      const options = field.property.options as Array<{ id: string; name: string; color: number }>;
      const option = { id: ctx.bitable.newOptionId(), name: i.name, color: options.length % 55 };
      options.push(option);
      return { id: option.id, name: option.name };
    },
    shareBase(i) {
      const app = base(i.appToken);
      if (i.remove) app.collaborators.delete(i.id);
      else app.collaborators.add(i.id);
    },
  };
}

/** `/__fake/work/…` control routes over the same hooks (see README). */
export function larkWorkControlRoutes(hooks: LarkWorkHooks): RouteDef[] {
  type In = Record<string, unknown>;
  const as = <T>(input: In, ...keys: string[]): T => {
    for (const key of keys) requireString(input, key);
    return input as T;
  };
  return [
    controlRoute('POST', '/work/tasks/edit', (i) => hooks.editTask(as(i, 'openId', 'taskGuid'))),
    controlRoute('POST', '/work/tasks/delete', (i) => hooks.deleteTask(as(i, 'openId', 'taskGuid'))),
    controlRoute('POST', '/work/tasks/comment', (i) => hooks.commentOnTask(as(i, 'openId', 'taskGuid', 'content'))),
    controlRoute('POST', '/work/comments/edit', (i) => hooks.editComment(as(i, 'openId', 'commentId', 'content'))),
    controlRoute('POST', '/work/comments/delete', (i) => hooks.deleteComment(as(i, 'openId', 'commentId'))),
    controlRoute('POST', '/work/tasklists/share', (i) => hooks.shareTasklist(as(i, 'tasklistGuid', 'id'))),
    controlRoute('POST', '/work/records/edit', (i) =>
      hooks.editRecord(as(i, 'openId', 'appToken', 'tableId', 'recordId')),
    ),
    controlRoute('POST', '/work/records/add', (i) => hooks.addRecord(as(i, 'openId', 'appToken', 'tableId'))),
    controlRoute('POST', '/work/records/delete', (i) =>
      hooks.deleteRecord(as(i, 'openId', 'appToken', 'tableId', 'recordId')),
    ),
    controlRoute('POST', '/work/fields/option', (i) =>
      hooks.addSelectOption(as(i, 'appToken', 'tableId', 'fieldName', 'name')),
    ),
    controlRoute('POST', '/work/bases/share', (i) => hooks.shareBase(as(i, 'appToken', 'id'))),
  ];
}

/** Task v2 and Bitable as plain JSON for `GET /__fake/state` (records as field name → stored value; files without bytes). */
export function workSnapshot(tasks: TaskStore, bitable: BitableStore): Record<string, unknown> {
  return {
    tasklists: [...tasks.tasklists.values()],
    tasks: [...tasks.tasks.values()],
    customFields: [...tasks.customFields.values()],
    taskComments: [...tasks.comments.values()],
    taskAttachments: [...tasks.attachments.values()].map(({ data: _data, links: _links, ...a }) => a),
    bitableApps: [...bitable.apps.values()].map((app) => ({
      app_token: app.app_token,
      name: app.name,
      url: app.url,
      collaborators: [...app.collaborators],
      tables: app.tables.map((t) => ({
        table_id: t.table_id,
        name: t.name,
        fields: t.fields,
        records: t.records.map((r) => ({
          record_id: r.record_id,
          last_modified_time: r.last_modified_time,
          fields: Object.fromEntries(
            t.fields.filter((f) => r.cells.has(f.field_id)).map((f) => [f.field_name, r.cells.get(f.field_id)]),
          ),
        })),
      })),
    })),
  };
}
