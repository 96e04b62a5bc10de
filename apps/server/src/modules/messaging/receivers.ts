import { MessagingMessages, type ReceiveType } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { PlannedDelivery } from './delivery-queue.ts';
import { parseRobotUrl, type RobotHosts } from '../../integrations/robot-destination.ts';
import type { MessagingRepository } from './messaging.repository.ts';

type AppRow = NonNullable<Awaited<ReturnType<MessagingRepository['app']>>>;
type WorkflowRow = NonNullable<Awaited<ReturnType<MessagingRepository['workflow']>>>;

/** The receivers of a push, and the people it cannot reach (no Lark account linked). */
export interface Resolved {
  receivers: PlannedDelivery[];
  skipped: string[];
}

/** Which service a call addresses: the Lark or WeCom endpoint, or either (batch sends follow the robot). */
export type Channel = 'lark' | 'wecom' | 'any';

export interface Scope {
  receiveType: ReceiveType;
  chatEnv?: 'DevTest' | 'PreFavTest' | null;
  userIds?: number[];
}

/**
 * SPEC §3 notification scopes turned into receivers, with SPEC §6's rules: the release group (PreFavTest),
 * subscribers and chosen users are for admins; everyone who may edit the app reaches the test group
 * (DevTest), the workflow's robot, themselves and the app's viewers.
 */
export function createReceiverResolver(deps: {
  messaging: MessagingRepository;
  hosts: RobotHosts;
  larkEnabled: boolean;
}) {
  const { messaging, hosts } = deps;

  /** `missing`: what to tell when no address is set (it says where to set it). */
  function robot(raw: string | null, secretWorkflowId: number | null, missing: string): PlannedDelivery {
    if (!raw) throw AppError.badRequest(missing);
    // Checked again here: an address saved before the rule, or under another configuration, is never called.
    const destination = parseRobotUrl(raw, hosts);
    if (!destination) throw AppError.badRequest(MessagingMessages.robotUrlRefused);
    const receiver =
      destination.kind === 'lark-bot'
        ? { kind: 'lark-bot' as const, url: destination.url, secretWorkflowId }
        : { kind: 'wecom-robot' as const, url: destination.url };
    return { receiver, target: destination.masked };
  }

  async function people(userIds: number[]): Promise<Resolved> {
    if (!deps.larkEnabled) throw AppError.badRequest(MessagingMessages.larkNotConfigured);
    const rows = await messaging.larkRecipients([...new Set(userIds)]);
    return {
      receivers: rows
        .filter((r) => r.open_id)
        .map((r) => ({
          receiver: { kind: 'lark-im' as const, openId: r.open_id as string },
          target: `飞书用户 ${r.username}`,
        })),
      // People who never signed in with Lark cannot be reached; the sender is told who they are.
      skipped: rows.filter((r) => !r.open_id).map((r) => r.username),
    };
  }

  return {
    /** The app's 开发群机器人 (DevTest) for news nobody asked to push (a feedback bug); null when none is set. */
    testGroupRobot(app: AppRow): PlannedDelivery | null {
      return app.dev_wecom_url ? robot(app.dev_wecom_url, null, MessagingMessages.noDevChatRobot) : null;
    },

    async resolve(
      user: AuthUser,
      channel: Channel,
      app: AppRow,
      workflow: WorkflowRow | null,
      scope: Scope,
    ): Promise<Resolved> {
      const type = scope.receiveType;
      if (type === 'subscribe' || type === 'user_ids') {
        if (!user.isAdmin) throw AppError.noPermission(MessagingMessages.scopeAdminOnly);
      }
      if (type === 'commit') {
        if (!workflow) throw AppError.badRequest('参数错误：workflowId 必填');
        return { receivers: [robot(workflow.robot_url, workflow.id, MessagingMessages.noRobot)], skipped: [] };
      }
      if (type === 'chat') {
        const release = scope.chatEnv === 'PreFavTest';
        if (release && !user.isAdmin) throw AppError.noPermission(MessagingMessages.releaseGroupAdminOnly);
        const [url, missing] = release
          ? [app.prod_wecom_url, MessagingMessages.noProdChatRobot]
          : [app.dev_wecom_url, MessagingMessages.noDevChatRobot];
        return { receivers: [robot(url, null, missing)], skipped: [] };
      }
      if (channel === 'wecom') throw AppError.badRequest(MessagingMessages.wecomPersonal);
      let ids: number[];
      if (type === 'self') {
        const me = await people([user.userId]);
        if (!me.receivers.length) throw AppError.badRequest(MessagingMessages.larkNotBound);
        return me;
      }
      if (type === 'view_app') ids = await messaging.viewerIds(app.id);
      else if (type === 'subscribe') ids = await messaging.subscriberIds(app.id);
      else ids = scope.userIds ?? [];
      const found = await people(ids);
      if (!found.receivers.length) throw AppError.badRequest(MessagingMessages.noRecipients);
      return found;
    },
  };
}
export type ReceiverResolver = ReturnType<typeof createReceiverResolver>;
