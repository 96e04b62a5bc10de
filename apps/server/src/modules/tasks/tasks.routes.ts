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
import { presenterFor, type LinkDeps } from '../versions/version-presenter.ts';
import type { TaskCommentsService } from './task-comments.service.ts';
import type { FileLinker } from './task-presenter.ts';
import type { TasksService } from './tasks.service.ts';

const tags = ['tasks'];

/** SPEC §7 Tasks: the calls that work without Lark, plus the task view switch and a record's history. */
export function tasksRoutes(deps: { tasks: TasksService; comments: TaskCommentsService } & LinkDeps): FastifyPluginAsyncZod {
  const { tasks, comments } = deps;
  const linker = (req: FastifyRequest): FileLinker => {
    const presenter = presenterFor(req, deps);
    return (key, name) => presenter.fileUrl(key, name);
  };
  return async (app) => {
    app.get('/api/task_view', { config: { access: 'user' }, schema: { tags, querystring: appIdQuery, response: { 200: envelopeSchema(taskViewSetting) } } }, async (req) =>
      ok(await tasks.taskView(currentUser(req), req.query.appId)),
    );
    app.post(
      '/api/task_view',
      { config: { access: 'admin' }, schema: { tags, description: 'Turns the app page\'s task view on or off (admins).', body: saveTaskViewBody, response: { 200: envelopeSchema(taskViewSetting) } } },
      async (req) => ok(await tasks.saveTaskView(currentUser(req), req.body.appId, req.body.taskViewEnabled)),
    );

    app.post(
      '/api/tasks',
      {
        config: { access: 'user' },
        schema: {
          tags,
          description: 'Records of an app, newest first; recordType \'\' lists both. extraInfo counts every task and bug of the app.',
          body: tasksQuery,
          response: { 200: z.object({ code: z.number(), msg: z.string(), data: z.array(taskRecord), total: z.number(), extraInfo: tasksExtraInfo }) },
        },
      },
      async (req) => {
        const { rows, total, extraInfo } = await tasks.list(currentUser(req), req.body, linker(req));
        return ok(rows, { total, extraInfo });
      },
    );
    app.get('/api/task', { config: { access: 'user' }, schema: { tags, querystring: taskGuidQuery, response: { 200: envelopeSchema(taskRecord) } } }, async (req) =>
      ok(await tasks.one(currentUser(req), req.query.taskGuid, linker(req))),
    );
    app.post(
      '/api/create_task',
      { config: { access: 'user' }, schema: { tags, description: 'Creates a task (not_started, priority high) or a bug (new). The same clientToken again answers the first record.', body: createTaskBody, response: { 200: envelopeSchema(taskRecord) } } },
      async (req) => ok(await tasks.create(currentUser(req), req.body, linker(req))),
    );
    app.post(
      '/api/update_task',
      { config: { access: 'user' }, schema: { tags, description: 'Edits a record by guid; with recordVersion, a record changed meanwhile answers 409.', body: updateTaskBody, response: { 200: envelopeSchema(taskRecord) } } },
      async (req) => ok(await tasks.update(currentUser(req), req.body, linker(req))),
    );
    app.get('/api/field_list', { config: { access: 'user' }, schema: { tags, querystring: appIdQuery, response: { 200: envelopeSchema(fieldGroups) } } }, async (req) => {
      await tasks.taskView(currentUser(req), req.query.appId);
      return ok(await tasks.fieldGroups(req.query.appId));
    });
    app.get('/api/task_history', { config: { access: 'user' }, schema: { tags, querystring: taskGuidQuery, response: { 200: envelopeSchema(z.array(taskHistoryEntry)) } } }, async (req) =>
      ok(await tasks.history(currentUser(req), req.query.taskGuid)),
    );
    app.get('/api/all_users', { config: { access: 'user' }, schema: { tags, response: { 200: envelopeSchema(z.array(assignableUser)) } } }, async () => ok(await tasks.allUsers()));

    app.get('/api/comments', { config: { access: 'user' }, schema: { tags, querystring: taskGuidQuery, response: { 200: envelopeSchema(z.array(taskComment)) } } }, async (req) =>
      ok(await comments.list(currentUser(req), req.query.taskGuid)),
    );
    app.post('/api/create_comment', { config: { access: 'user' }, schema: { tags, body: createCommentBody, response: { 200: envelopeSchema(z.object({ id: z.number() })) } } }, async (req) =>
      ok(await comments.create(currentUser(req), req.body.taskGuid, req.body.content)),
    );
    app.post('/api/update_comment', { config: { access: 'user' }, schema: { tags, body: updateCommentBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await comments.update(currentUser(req), req.body.id, req.body.content);
      return ok(null);
    });
    app.post('/api/delete_comment', { config: { access: 'user' }, schema: { tags, body: deleteCommentBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await comments.remove(currentUser(req), req.body.id);
      return ok(null);
    });
  };
}
