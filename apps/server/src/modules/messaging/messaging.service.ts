import {
  AppMessages,
  dayStartMs,
  MessagingMessages,
  type SendMessageBody,
  type SendMultiCommitsBody,
  type SendResult,
  type SendTodayLogsBody,
  type VersionChanges,
} from '@release/contract';
import type { MediaLinks } from '../../http/media-links.ts';
import { AppError } from '../../http/app-error.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AuthUser } from '../auth/session.service.ts';
import { composeContent, composeFeedback, type FeedbackNews } from './compose.ts';
import type { DeliveryLogService } from './delivery-log.service.ts';
import type { DeliveryQueue } from './delivery-queue.ts';
import { MAX_ITEMS_PER_MESSAGE, type CommitRow, type MessagingRepository } from './messaging.repository.ts';
import type { Channel, ReceiverResolver, Scope } from './receivers.ts';

/**
 * The pushes of SPEC §7: one item or package (send_lark_message / send_wecom_message), chosen items or a
 * time range (send_multi_commits), and a day's items (send_today_logs). Each answers at once with the
 * queued deliveries; the delivery jobs do the sending.
 */
export function createMessagingService(deps: {
  messaging: MessagingRepository;
  receivers: ReceiverResolver;
  queue: DeliveryQueue;
  log: DeliveryLogService;
  policy: AppsPolicy;
  mediaLinks: MediaLinks;
  /** What changed since the build before this one (issue 19): the changes a package's push lists. */
  changesOf?: (versionId: number) => Promise<VersionChanges | null>;
}) {
  const { messaging, receivers, queue, policy } = deps;
  const changesOf = async (versionId: number) => (deps.changesOf ? deps.changesOf(versionId) : null);

  async function appFor(user: AuthUser, appId: number) {
    // Pushing is on the item's action menu, shown to editors only (SPEC §6).
    await policy.assertCanEdit(user, appId);
    const app = await messaging.app(appId);
    if (!app) throw AppError.notFound(AppMessages.appNotFound);
    return app;
  }

  async function workflowOf(appId: number, workflowId: number | null | undefined) {
    if (!workflowId) return null;
    const workflow = await messaging.workflow(workflowId);
    if (!workflow || workflow.app_id !== appId) throw AppError.notFound(MessagingMessages.workflowNotFound);
    return workflow;
  }

  async function versionOf(appId: number, by: { id?: number | null; indexNo?: number | null }) {
    if (!by.id && !by.indexNo) return null;
    const version = await messaging.version(appId, by);
    if (!version) throw AppError.notFound(MessagingMessages.versionNotFound);
    return version;
  }

  async function push(
    user: AuthUser,
    channel: Channel,
    input: {
      app: NonNullable<Awaited<ReturnType<MessagingRepository['app']>>>;
      workflow: Awaited<ReturnType<typeof workflowOf>>;
      scope: Scope;
      branch?: string | null;
      version: Awaited<ReturnType<typeof versionOf>>;
      commits: CommitRow[];
      totalCommits: number;
      baseUrl: string | null;
      changes?: VersionChanges | null;
    },
  ): Promise<SendResult> {
    const planned = await receivers.resolve(user, channel, input.app, input.workflow, input.scope);
    const content = composeContent({
      app: input.app,
      workflow: input.workflow,
      branch: input.branch,
      version: input.version,
      commits: input.commits,
      totalCommits: input.totalCommits,
      baseUrl: input.baseUrl,
      mediaLinks: deps.mediaLinks,
      changes: input.changes,
    });
    const ids = await queue.queue({
      appId: input.app.id,
      workflowId: input.workflow?.id ?? null,
      requestedBy: user.userId,
      content,
      receivers: planned.receivers,
    });
    const deliveries = await deps.log.byIds(ids);
    return { deliveryIds: ids, deliveries, skipped: planned.skipped };
  }

  function scopeOf(body: {
    receiveType?: Scope['receiveType'];
    chatEnv?: Scope['chatEnv'];
    userIds?: number[];
  }): Scope {
    return { receiveType: body.receiveType ?? 'commit', chatEnv: body.chatEnv ?? 'DevTest', userIds: body.userIds };
  }

  async function range(
    user: AuthUser,
    body: { appId: number; workflowId: number; branch?: string | null; indexNo?: number | null } & Parameters<
      typeof scopeOf
    >[0],
    from: number,
    to: number,
    baseUrl: string,
  ) {
    if (to <= from) throw AppError.badRequest(MessagingMessages.badRange);
    const app = await appFor(user, body.appId);
    const workflow = await workflowOf(app.id, body.workflowId);
    const version = await versionOf(app.id, { indexNo: body.indexNo });
    const { rows, total } = await messaging.commitsInRange({
      workflowId: body.workflowId,
      from,
      to,
      branch: body.branch,
    });
    if (!rows.length) throw AppError.badRequest(MessagingMessages.noCommits);
    return push(user, 'any', {
      app,
      workflow,
      scope: scopeOf(body),
      branch: body.branch,
      version,
      commits: rows,
      totalCommits: total,
      baseUrl,
    });
  }

  return {
    /** One item (commitId) and/or one package (appVersionId or indexNo) to the scope's receivers. */
    async send(
      user: AuthUser,
      channel: Exclude<Channel, 'any'>,
      body: SendMessageBody,
      baseUrl: string,
    ): Promise<SendResult> {
      const app = await appFor(user, body.appId);
      let workflow = await workflowOf(app.id, body.workflowId);
      let commits: CommitRow[] = [];
      let boundVersionId: number | null = null;
      if (body.commitId) {
        const item = await messaging.commitById(body.commitId);
        if (!item || item.app_id !== app.id || (workflow && item.workflow_id !== workflow.id))
          throw AppError.notFound(MessagingMessages.commitNotFound);
        workflow ??= await workflowOf(app.id, item.workflow_id);
        boundVersionId = item.app_version_id;
        // An item of a package workflow is the package itself: the version card says it all.
        commits = workflow?.content_type === 'package' && boundVersionId ? [] : [item];
      }
      const version = await versionOf(
        app.id,
        body.appVersionId || body.indexNo ? { id: body.appVersionId, indexNo: body.indexNo } : { id: boundVersionId },
      );
      return push(user, channel, {
        app,
        workflow,
        scope: scopeOf(body),
        branch: body.branch,
        version,
        commits,
        totalCommits: commits.length,
        baseUrl,
        // A package pushed by itself lists its changes, as its announcement on upload does.
        changes: version && commits.length === 0 ? await changesOf(version.id) : null,
      });
    },

    /** Chosen items (commitIds), or every shown item from startTime to endTime inclusive (all: true). */
    async sendMultiCommits(user: AuthUser, body: SendMultiCommitsBody, baseUrl: string): Promise<SendResult> {
      if (!body.commitIds?.length) return range(user, body, body.startTime ?? 0, (body.endTime ?? 0) + 1, baseUrl);
      const app = await appFor(user, body.appId);
      const workflow = await workflowOf(app.id, body.workflowId);
      const rows = await messaging.commitsByIds(body.workflowId, body.commitIds);
      if (!rows.length) throw AppError.badRequest(MessagingMessages.noCommits);
      const version = await versionOf(app.id, { indexNo: body.indexNo });
      const total = rows.length + Math.max(0, new Set(body.commitIds).size - MAX_ITEMS_PER_MESSAGE);
      return push(user, 'any', {
        app,
        workflow,
        scope: scopeOf(body),
        branch: body.branch,
        version,
        commits: rows,
        totalCommits: total,
        baseUrl,
      });
    },

    /**
     * A package just published with a chatEnv (v2/upload_app): its card to that group's robot, with what changed
     * since the build before it (`changesOf`, issue 19). An app without a robot for that group has nobody to tell,
     * which is not an error of the upload.
     */
    async announceVersion(
      user: AuthUser,
      version: { appId: number; id: number },
      chatEnv: 'DevTest' | 'PreFavTest',
      baseUrl: string | null,
    ): Promise<SendResult | null> {
      const app = await messaging.app(version.appId);
      const row = await messaging.version(version.appId, { id: version.id });
      if (!app || !row) return null;
      const configured = chatEnv === 'PreFavTest' ? app.prod_wecom_url : app.dev_wecom_url;
      if (!configured) return null;
      return push(user, 'any', {
        app,
        workflow: null,
        scope: { receiveType: 'chat', chatEnv },
        version: row,
        commits: [],
        totalCommits: 0,
        baseUrl,
        changes: await changesOf(row.id),
      });
    },

    /**
     * A tester's feedback became a bug (issue 20): the app's test group robot (Lark or WeCom) hears of it, as the
     * bell tells the receivers. Without a robot there is nobody to tell; answers the queued deliveries.
     */
    async announceFeedback(
      feedback: FeedbackNews & { appId: number; versionId: number; requestedBy: number | null },
      baseUrl: string | null,
    ): Promise<number[]> {
      const app = await messaging.app(feedback.appId);
      const version = await messaging.version(feedback.appId, { id: feedback.versionId });
      const robot = app ? receivers.testGroupRobot(app) : null;
      if (!app || !robot) return [];
      const content = composeFeedback(
        { app, version: version ?? null, baseUrl, mediaLinks: deps.mediaLinks },
        feedback,
      );
      return queue.queue({
        appId: app.id,
        workflowId: null,
        requestedBy: feedback.requestedBy,
        content,
        receivers: [robot],
      });
    },

    /** A day's items: [startDate, nextDate). */
    async sendTodayLogs(user: AuthUser, body: SendTodayLogsBody, baseUrl: string): Promise<SendResult> {
      return range(user, body, dayStartMs(body.startDate), dayStartMs(body.nextDate), baseUrl);
    },
  };
}
export type MessagingService = ReturnType<typeof createMessagingService>;
