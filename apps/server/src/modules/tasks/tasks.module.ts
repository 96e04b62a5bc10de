import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { feedbackRoutes } from './feedback.routes.ts';
import { createFeedbackService } from './feedback.service.ts';
import { createTaskCommentsService } from './task-comments.service.ts';
import { createTasksRepository } from './tasks.repository.ts';
import { tasksRoutes } from './tasks.routes.ts';
import { createTasksService } from './tasks.service.ts';

/** The task and bug tracker, and tester feedback that becomes its bugs; with a Lark app its changes go to the Lark sync (tasks-sync). */
export async function register(app: FastifyInstance, core: Core) {
  const repo = createTasksRepository(core.db);
  const sync = core.shared.tasksSync;
  const tasks = createTasksService({
    tasks: repo,
    policy: core.shared.policy,
    uploads: core.shared.uploads,
    clock: core.clock,
    larkEnabled: Boolean(core.config.lark),
    fieldOptions: sync?.fieldOptions,
    // The app's open pages hear of it at once; with Lark the change also goes to the Lark sync.
    onChange: async (record, change) => {
      core.live.publish({ type: 'task', appId: record.app_id });
      await sync?.onChangeQuietly(record, change);
    },
  });
  const comments = createTaskCommentsService({
    tasks: repo,
    records: tasks,
    policy: core.shared.policy,
    clock: core.clock,
  });
  await app.register(tasksRoutes({ tasks, comments, ...core.links }));
  const feedback = createFeedbackService({
    tasks,
    repo,
    install: core.shared.install,
    policy: core.shared.policy,
    members: core.shared.members,
    guard: core.shared.loginGuard,
    clock: core.clock,
    bell: core.shared.bell,
    // The test group's robot hears of it too; a robot that cannot be queued never fails the feedback.
    announce: (news, baseUrl) =>
      core.shared.messaging
        .announceFeedback(news, baseUrl)
        .catch((err: unknown) => core.logger.error({ err }, 'announcing a feedback bug failed')),
  });
  await app.register(
    feedbackRoutes({ feedback, blobs: core.blobs, clock: core.clock, publicUrl: core.config.publicUrl }),
  );
}
