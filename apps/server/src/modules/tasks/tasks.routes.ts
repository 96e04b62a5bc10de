import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  appIdQuery,
  assignableUser,
  createCommentBody,
  createTaskBody,
  deleteCommentBody,
  fieldGroups,
  saveTaskViewBody,
  taskComment,
  taskGuidQuery,
  taskHistoryEntry,
  taskRecord,
  taskViewSetting,
  tasksExtraInfo,
  tasksQuery,
  updateCommentBody,
  updateTaskBody,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import { linksFor, type LinkDeps } from '../../http/links.ts';
import type { TaskCommentsService } from './task-comments.service.ts';
import type { FileLinker } from './task-presenter.ts';
import type { TasksService } from './tasks.service.ts';

const tags = ['任务'];

/** SPEC §7 Tasks: the calls that work without Lark, plus the task view switch and a record's history. */
export function tasksRoutes(
  deps: { tasks: TasksService; comments: TaskCommentsService } & LinkDeps,
): FastifyPluginAsyncZod {
  const { tasks, comments } = deps;
  const linker = (req: FastifyRequest): FileLinker => {
    const presenter = linksFor(req, deps);
    return (key, name) => presenter.fileUrl(key, name);
  };
  return async (app) => {
    app.get(
      '/api/task_view',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '任务视图设置',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。应用页是否显示任务视图、是否配置了飞书，以及关联的飞书任务清单与多维表格地址。',
          querystring: appIdQuery,
          response: { 200: envelopeSchema(taskViewSetting) },
        },
      },
      async (req) => ok(await tasks.taskView(currentUser(req), req.query.appId)),
    );
    app.post(
      '/api/task_view',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '开关任务视图',
          description:
            '管理员（角色等级 100）。打开或关闭应用 `appId` 的任务视图（`taskViewEnabled`），返回新的设置。应用不存在 404。',
          body: saveTaskViewBody,
          response: { 200: envelopeSchema(taskViewSetting) },
        },
      },
      async (req) => ok(await tasks.saveTaskView(currentUser(req), req.body.appId, req.body.taskViewEnabled)),
    );

    app.post(
      '/api/tasks',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '任务与缺陷列表',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。分页列出应用的任务（task）与缺陷（bug），最新的在前；`recordType` 为空字符串时两者都列出。`extraInfo` 给出该应用全部任务数 `taskCount` 与缺陷数 `bugCount`。',
          body: tasksQuery,
          response: {
            200: z.object({
              code: z.number(),
              msg: z.string(),
              data: z.array(taskRecord),
              total: z.number(),
              extraInfo: tasksExtraInfo,
            }),
          },
        },
      },
      async (req) => {
        const { rows, total, extraInfo } = await tasks.list(currentUser(req), req.body, linker(req));
        return ok(rows, { total, extraInfo });
      },
    );
    app.get(
      '/api/task',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '任务详情',
          description:
            '管理员或对该应用有编辑/查看权限的用户。按 `taskGuid` 返回一条任务或缺陷（含附件链接）；不存在或看不到 404「任务不存在或您没有该应用的权限」。',
          querystring: taskGuidQuery,
          response: { 200: envelopeSchema(taskRecord) },
        },
      },
      async (req) => ok(await tasks.one(currentUser(req), req.query.taskGuid, linker(req))),
    );
    app.post(
      '/api/create_task',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '新建任务或缺陷',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。新建任务（状态未开始、优先级高）或缺陷（状态新建）；负责人须为存在的用户，状态、优先级等须在可选项中，附件须是自己已上传完成的任务附件，否则 400。同一 `clientToken` 再次提交返回第一次建的记录，不会重复创建。',
          body: createTaskBody,
          response: { 200: envelopeSchema(taskRecord) },
        },
      },
      async (req) => ok(await tasks.create(currentUser(req), req.body, linker(req))),
    );
    app.post(
      '/api/update_task',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '编辑任务或缺陷',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。按 guid 修改一条记录；带上读到的 `recordVersion` 时，若记录已被他人修改则 409「该记录已被他人修改，请刷新后重试」。记录不存在 404；已在飞书删除的记录 400。',
          body: updateTaskBody,
          response: { 200: envelopeSchema(taskRecord) },
        },
      },
      async (req) => ok(await tasks.update(currentUser(req), req.body, linker(req))),
    );
    app.get(
      '/api/field_list',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '任务字段可选项',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。状态、优先级、模块等字段的可选项，按字段分组；关联了飞书时取飞书的选项。',
          querystring: appIdQuery,
          response: { 200: envelopeSchema(fieldGroups) },
        },
      },
      async (req) => {
        await tasks.taskView(currentUser(req), req.query.appId);
        return ok(await tasks.fieldGroups(req.query.appId));
      },
    );
    app.get(
      '/api/task_history',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '任务修改历史',
          description:
            '管理员或对该应用有编辑/查看权限的用户。按 `taskGuid` 列出记录的每次修改（字段、旧值、新值、修改人、来源本地或飞书、时间）；不存在或看不到 404。',
          querystring: taskGuidQuery,
          response: { 200: envelopeSchema(z.array(taskHistoryEntry)) },
        },
      },
      async (req) => ok(await tasks.history(currentUser(req), req.query.taskGuid)),
    );
    app.get(
      '/api/all_users',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '可指派的用户',
          description: '登录用户。可以被指派为负责人的所有用户（ID 与名字）。',
          response: { 200: envelopeSchema(z.array(assignableUser)) },
        },
      },
      async () => ok(await tasks.allUsers()),
    );

    app.get(
      '/api/comments',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '任务评论',
          description: '管理员或对该应用有编辑/查看权限的用户。按 `taskGuid` 列出任务的评论；任务不存在或看不到 404。',
          querystring: taskGuidQuery,
          response: { 200: envelopeSchema(z.array(taskComment)) },
        },
      },
      async (req) => ok(await comments.list(currentUser(req), req.query.taskGuid)),
    );
    app.post(
      '/api/create_comment',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '发表评论',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。给任务 `taskGuid` 添加评论 `content`（不能为空，400「请输入评论」），返回评论 `id`。任务不存在 404。',
          body: createCommentBody,
          response: { 200: envelopeSchema(z.object({ id: z.number() })) },
        },
      },
      async (req) => ok(await comments.create(currentUser(req), req.body.taskGuid, req.body.content)),
    );
    app.post(
      '/api/update_comment',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '修改评论',
          description:
            '对该应用有编辑权限的用户或管理员。修改评论 `id` 的内容；只能修改自己的评论（管理员不限，否则 10028「只能修改或删除自己的评论」）。评论不存在 404。',
          body: updateCommentBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await comments.update(currentUser(req), req.body.id, req.body.content);
        return ok(null);
      },
    );
    app.post(
      '/api/delete_comment',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '删除评论',
          description:
            '对该应用有编辑权限的用户或管理员。删除评论 `id`；只能删除自己的评论（管理员不限，否则 10028）。评论不存在 404「评论不存在或已删除」。',
          body: deleteCommentBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await comments.remove(currentUser(req), req.body.id);
        return ok(null);
      },
    );
  };
}
