import { MessagingMessages } from '@release/contract';
import { z } from 'zod';
import { defineJob, JobFailure } from '../../jobs/job-definition.ts';
import type { LarkClient } from '../../integrations/lark/lark-client.ts';
import type { AppMetrics } from '../../lib/app-metrics.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { DeliveriesRepository } from './deliveries.repository.ts';
import { parseRobotUrl, type RobotHosts } from '../../integrations/robot-destination.ts';
import { larkImContent, larkWebhookBody } from './lark-card.ts';
import type { LarkIcons } from './lark-icon.ts';
import type { MessageContent } from './message-content.ts';
import type { MessagingRepository } from './messaging.repository.ts';
import { mayHaveArrived, sendLarkBot, sendLarkIm, sendWecomRobot, type SendReceipt } from './senders.ts';
import { wecomBody } from './wecom-message.ts';

export const DELIVERY_JOB = 'messaging.delivery';
/** Lark keeps an im/v1 `uuid` for an hour; a resend after a crash is safe well inside that. */
const IM_UUID_WINDOW_MS = 50 * 60_000;

export const deliveryPayload = z.object({
  deliveryId: z.number().int(),
  receiver: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('lark-bot'), url: z.string(), secretWorkflowId: z.number().int().nullable() }),
    z.object({ kind: z.literal('wecom-robot'), url: z.string() }),
    z.object({ kind: z.literal('lark-im'), openId: z.string() }),
  ]),
  content: z.custom<MessageContent>(
    (v) => typeof v === 'object' && v !== null && Array.isArray((v as MessageContent).commits),
  ),
});
export type DeliveryPayload = z.infer<typeof deliveryPayload>;

export interface DeliveryJobDeps {
  deliveries: DeliveriesRepository;
  messaging: MessagingRepository;
  box: SecretBox;
  lark: LarkClient | null;
  hosts: RobotHosts;
  clock: Clock;
  /** The app icon's Lark image_key for card headers (null: the card goes without it). */
  icons: LarkIcons;
  /** Counts each settled delivery (sent, failed, retry) for /metrics. */
  metrics?: Pick<AppMetrics, 'deliveries'>;
}

/**
 * Sends one delivery. Robot webhooks have no idempotency key, so they are sent at most once: a run that finds
 * the previous one died after the request left gives up with "结果未知" rather than risk a second post.
 * Lark app messages carry `uuid`, so such a run simply sends again and Lark drops the repeat.
 */
export function createDeliveryJob(deps: DeliveryJobDeps) {
  const { deliveries, clock } = deps;

  /** Everything that can be refused before anything leaves: address (SSRF, again), secret, credentials. */
  async function prepare(p: DeliveryPayload, appId: number): Promise<() => Promise<SendReceipt>> {
    const r = p.receiver;
    // The icon as it is now (a changed icon is a new upload); its lack never holds the message back.
    const iconKey = async () => deps.icons.forIcon((await deps.messaging.app(appId))?.app_icon ?? null);
    if (r.kind === 'lark-im') {
      const lark = deps.lark;
      if (!lark) throw JobFailure.permanent(MessagingMessages.larkNotConfigured);
      const content = larkImContent(p.content, await iconKey());
      return () => sendLarkIm(lark, r.openId, content, `delivery-${p.deliveryId}`);
    }
    const destination = parseRobotUrl(r.url, deps.hosts);
    if (!destination || destination.kind !== r.kind) throw JobFailure.permanent(MessagingMessages.robotUrlRefused);
    if (destination.kind === 'wecom-robot') {
      const body = wecomBody(p.content);
      return () => sendWecomRobot(destination.url, body);
    }
    const sealed =
      r.kind === 'lark-bot' && r.secretWorkflowId
        ? (await deps.messaging.workflow(r.secretWorkflowId))?.robot_secret
        : null;
    const secret = sealed ? deps.box.open(sealed) : null;
    const body = larkWebhookBody(p.content, await iconKey());
    return () => sendLarkBot(destination.url, body, secret, clock.now());
  }

  return defineJob({
    kind: DELIVERY_JOB,
    payload: deliveryPayload,
    maxAttempts: 6,
    async run(p): Promise<SendReceipt | null> {
      const delivery = await deliveries.findById(p.deliveryId);
      if (!delivery || delivery.status === 'sent') return null;
      if (delivery.sending_since !== null) {
        const idempotent = p.receiver.kind === 'lark-im' && clock.now() - delivery.sending_since < IM_UUID_WINDOW_MS;
        if (!idempotent) throw JobFailure.permanent(MessagingMessages.interrupted);
      }
      const send = await prepare(p, delivery.app_id);
      await deliveries.markSending(p.deliveryId, clock.now());
      try {
        return await send();
      } catch (error) {
        if (error instanceof JobFailure) throw error;
        const reason =
          error instanceof Error
            ? `${error.message}${(error.cause as Error | undefined)?.message ? `: ${(error.cause as Error).message}` : ''}`
            : String(error);
        if (p.receiver.kind !== 'lark-im' && mayHaveArrived(error))
          throw JobFailure.permanent(`${MessagingMessages.interrupted}（${reason}）`);
        throw JobFailure.retry(`网络错误：${reason}`);
      }
    },
    async settle(trx, p, outcome) {
      const now = clock.now();
      if (outcome.status === 'done') {
        if (outcome.result) {
          await deliveries.settle(trx, p.deliveryId, {
            status: 'sent',
            code: outcome.result.code,
            message: outcome.result.message,
            sentTime: now,
          });
          deps.metrics?.deliveries.inc({ receiver: p.receiver.kind, outcome: 'sent' });
        }
        return;
      }
      const { failure } = outcome;
      await deliveries.settle(trx, p.deliveryId, {
        status: outcome.status === 'retry' ? 'pending' : 'failed',
        code: failure.code,
        message: failure.message,
      });
      deps.metrics?.deliveries.inc({
        receiver: p.receiver.kind,
        outcome: outcome.status === 'retry' ? 'retry' : 'failed',
      });
    },
  });
}
export type DeliveryJob = ReturnType<typeof createDeliveryJob>;
