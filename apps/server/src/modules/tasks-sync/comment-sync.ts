import type { Clock } from '../../lib/clock.ts';
import { LarkApiError } from '../../integrations/lark/lark-client.ts';
import type { LarkTaskClient, LarkTaskComment } from '../../integrations/lark/lark-task.ts';
import type { TaskRecordRow } from '../tasks/tasks.repository.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';

/** Lark lets only a comment's author edit or delete it (1470403): a local change to someone else's comment stays local. */
const notAuthor = (error: unknown) => error instanceof LarkApiError && error.code === 1470403;
const gone = (error: unknown) => error instanceof LarkApiError && error.code === 1470404;

/**
 * A task's comments both ways. Local comments carry comment_version and lark_synced_version: a local change not yet
 * in Lark is pushed; a Lark change (other content, or the comment gone) comes in only while no local change is pending
 * (the local edit wins and is pushed). Comments written in Lark by people come in as new local comments.
 */
export function createCommentSync(deps: {
  client: LarkTaskClient;
  sync: TasksSyncRepository;
  clock: Clock;
  larkAppId: string;
}) {
  return async function syncComments(
    record: TaskRecordRow,
    taskGuid: string,
  ): Promise<{ pushed: number; pulled: number }> {
    let pushed = 0;
    let pulled = 0;
    const now = deps.clock.now();
    const local = await deps.sync.commentsOf(Number(record.id));
    const remote = await deps.client.listComments(taskGuid);
    const byId = new Map(remote.map((c) => [c.id, c]));
    const linked = new Set(local.map((c) => c.lark_comment_id).filter(Boolean));
    // Our own comments not linked yet (a crash between Lark's answer and our write): adopt them instead of posting again.
    const unclaimed = remote.filter(
      (c) => c.creator.type === 'app' && c.creator.id === deps.larkAppId && !linked.has(c.id),
    );

    for (const c of local) {
      const version = Number(c.comment_version);
      const pending = version !== Number(c.lark_synced_version ?? 0);
      const theirs: LarkTaskComment | undefined = c.lark_comment_id ? byId.get(c.lark_comment_id) : undefined;
      if (c.deleted_time !== null) {
        if (!c.lark_comment_id || !pending) continue;
        if (theirs)
          await deps.client
            .deleteComment(theirs.id)
            .catch((e: unknown) => (notAuthor(e) || gone(e) ? undefined : Promise.reject(e)));
        await deps.sync.markCommentSynced(Number(c.id), c.lark_comment_id, version);
        pushed += 1;
        continue;
      }
      if (!c.lark_comment_id || (!theirs && pending)) {
        const adopted = unclaimed.findIndex((r) => r.content === c.content);
        const created =
          adopted >= 0 ? unclaimed.splice(adopted, 1)[0] : await deps.client.createComment(taskGuid, c.content);
        await deps.sync.markCommentSynced(Number(c.id), created?.id ?? null, version);
        pushed += 1;
        continue;
      }
      if (!theirs) {
        // Deleted in Lark, no local change pending.
        if (await deps.sync.applyRemoteComment(Number(c.id), Number(record.id), version, null, now)) pulled += 1;
        continue;
      }
      if (pending) {
        // Someone else's Lark comment edited here stays pending: Lark keeps theirs, ours is never overwritten by it.
        const taken =
          theirs.content === c.content ||
          (await deps.client.updateComment(theirs.id, c.content).then(
            () => true,
            (e: unknown) => (notAuthor(e) ? false : Promise.reject(e)),
          ));
        if (taken) {
          await deps.sync.markCommentSynced(Number(c.id), theirs.id, version);
          pushed += 1;
        }
      } else if (theirs.content !== c.content) {
        if (
          await deps.sync.applyRemoteComment(
            Number(c.id),
            Number(record.id),
            version,
            theirs.content,
            Number(theirs.updated_at) || now,
          )
        )
          pulled += 1;
      }
    }

    const fresh = remote.filter(
      (c) => !linked.has(c.id) && !(c.creator.type === 'app' && c.creator.id === deps.larkAppId),
    );
    const authors = await deps.sync.usersOfOpenIds(
      fresh.filter((c) => c.creator.type === 'user').map((c) => c.creator.id),
    );
    for (const c of fresh) {
      await deps.sync.insertRemoteComment(
        Number(record.id),
        c.id,
        c.content,
        authors.get(c.creator.id) ?? null,
        Number(c.created_at) || now,
      );
      pulled += 1;
    }
    return { pushed, pulled };
  };
}
