import { TaskMessages, type TaskComment } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TasksService } from './tasks.service.ts';

/**
 * Comments inside the drawer (SPEC §2, §5). Edit users of the app comment; a comment is edited or deleted
 * by its author (admins may do both for anyone). Every change is a history row of the record.
 */
export function createTaskCommentsService(deps: {
  tasks: TasksRepository;
  records: TasksService;
  policy: AppsPolicy;
  clock: Clock;
}) {
  const { tasks, records, policy, clock } = deps;

  function requireContent(content: string): string {
    const text = content.trim();
    if (!text) throw AppError.badRequest(TaskMessages.commentRequired);
    return text;
  }

  async function ownComment(user: AuthUser, id: number) {
    const comment = await tasks.findComment(id);
    if (!comment) throw AppError.notFound(TaskMessages.commentNotFound);
    const access = await policy.accessOf(user, Number(comment.appId));
    if (!access) throw AppError.notFound(TaskMessages.commentNotFound);
    if (access === 'view') throw AppError.noPermission();
    if (!user.isAdmin && comment.creator_id !== user.userId) throw AppError.noPermission(TaskMessages.notOwnComment);
    return comment;
  }

  async function changed(recordId: number) {
    const record = await tasks.findById(recordId);
    await records.notify(record, 'comment');
  }

  return {
    async list(user: AuthUser, taskGuid: string): Promise<TaskComment[]> {
      const record = await records.recordFor(user, taskGuid, 'view');
      const rows = await tasks.commentsOf(Number(record.id));
      return rows.map((r) => ({
        id: Number(r.id),
        content: r.content,
        creatorId: r.creator_id === null ? null : Number(r.creator_id),
        creatorName: r.creatorName ?? null,
        createdAt: r.create_time,
        updatedAt: r.update_time,
      }));
    },

    async create(user: AuthUser, taskGuid: string, content: string): Promise<{ id: number }> {
      const text = requireContent(content);
      const record = await records.recordFor(user, taskGuid, 'edit');
      const now = clock.now();
      const id = await tasks.insertComment(
        {
          record_id: Number(record.id),
          content: text,
          creator_id: user.userId,
          lark_comment_id: null,
          lark_synced_version: null,
          create_time: now,
          update_time: now,
          deleted_time: null,
        },
        Number(record.record_version),
        {
          actor_id: user.userId,
          source: 'local',
          field: 'comment',
          old_value: null,
          new_value: text,
          create_time: now,
          comment_id: null,
        },
      );
      await changed(Number(record.id));
      return { id };
    },

    async update(user: AuthUser, id: number, content: string): Promise<void> {
      const text = requireContent(content);
      const comment = await ownComment(user, id);
      if (comment.content === text) return;
      const now = clock.now();
      await tasks.updateComment(id, Number(comment.record_id), text, now, Number(comment.recordVersion), {
        actor_id: user.userId,
        source: 'local',
        field: 'comment',
        old_value: comment.content,
        new_value: text,
        create_time: now,
        comment_id: null,
      });
      await changed(Number(comment.record_id));
    },

    async remove(user: AuthUser, id: number): Promise<void> {
      const comment = await ownComment(user, id);
      const now = clock.now();
      await tasks.deleteComment(id, Number(comment.record_id), now, Number(comment.recordVersion), {
        actor_id: user.userId,
        source: 'local',
        field: 'comment',
        old_value: comment.content,
        new_value: null,
        create_time: now,
        comment_id: null,
      });
      await changed(Number(comment.record_id));
    },
  };
}
export type TaskCommentsService = ReturnType<typeof createTaskCommentsService>;
