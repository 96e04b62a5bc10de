import type { CustomPushBody } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import {
  detectWebhookProvider,
  parsePushWebhook,
  WebhookError,
  webhookDeliveryKey,
  type WebhookRequest,
} from '../../integrations/webhooks/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Logger } from '../../lib/logger.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { CommitIngestService } from '../commit-logs/commit-ingest.service.ts';
import type { CommitLogsDirectory } from '../commit-logs/commit-logs-directory.ts';
import type { WorkflowsDirectory } from '../workflows/workflows-directory.ts';
import { isPolled, planDelivery, sameSecret, takesPushes, takesWebhooks } from './inbound-rules.ts';
import { createLarkEventJob, type LarkDocumentEvent, type LarkDocumentReader } from './lark-event.job.ts';
import type { RepoSyncService, SyncResult } from './repo-sync.service.ts';

/** A webhook delivery as received: the headers and the exact bytes (signatures cover them). */
export interface WebhookDelivery {
  headers: WebhookRequest['headers'];
  rawBody: Buffer;
}

/** What a sender is told: how many items it reported and how many were new (`duplicate`: a delivery seen before). */
export interface InboundAnswer {
  received: number;
  created: number;
  duplicate?: true;
}

export type PollOutcome = SyncResult | { skipped: string };

/**
 * The one way changes come into workflows (issue 17): a git host's webhook, the push API of custom workflows, a poll of
 * git and svn repositories (scheduled, after a save, or an editor's 同步) and a Lark document event. Each entry point
 * checks what is particular to it (signature, secret, which workflows take it, a redelivered event) and ends in the
 * commit ingest (commit-ingest.service.ts), which stores each item once per workflow and tells autoPush.
 */
export function createInboundService(deps: {
  workflows: WorkflowsDirectory;
  logs: CommitLogsDirectory;
  ingest: CommitIngestService;
  sync: RepoSyncService;
  box: SecretBox;
  clock: Clock;
  jobs: JobQueue;
  logger?: Logger;
  /** Reads queued Lark document events into items (lark-docs' event service). */
  larkDocuments: LarkDocumentReader;
}) {
  const { workflows, logs, ingest, sync, clock } = deps;
  const larkEvents = createLarkEventJob({ jobs: deps.jobs, reader: deps.larkDocuments });

  return {
    /**
     * A push webhook of GitLab, GitHub or Gitea at a workflow's address (`token`), verified the way each host signs
     * (token header or HMAC over the raw body) with the workflow's secret; a delivery seen before changes nothing.
     */
    async webhook(token: string, delivery: WebhookDelivery): Promise<InboundAnswer> {
      const workflow = await workflows.findByWebhookToken(token);
      if (!workflow || !takesWebhooks(workflow)) throw AppError.notFound('Webhook 地址不存在');
      const provider = detectWebhookProvider(delivery.headers);
      if (!provider) throw AppError.badRequest('无法识别的 Webhook 来源（支持 GitLab、GitHub、Gitea）');
      let event;
      try {
        event = parsePushWebhook(provider, delivery, { secret: deps.box.open(workflow.webhook_secret) });
      } catch (error) {
        if (!(error instanceof WebhookError)) throw error;
        if (error.reason === 'bad_signature' || error.reason === 'missing_signature')
          throw AppError.unauthorized(`${error.message}（请检查 Webhook 密钥/token）`);
        throw AppError.badRequest(error.message);
      }
      const plan = planDelivery(event, workflow.default_branch);
      if (plan.kind === 'nothing') return { received: 0, created: 0 };
      const fresh = await logs.recordDelivery(
        workflow.id,
        webhookDeliveryKey({ deliveryId: event.deliveryId }, delivery.rawBody),
        clock.now(),
      );
      if (!fresh) return { received: event.commits.length, created: 0, duplicate: true };
      switch (plan.kind) {
        case 'tag':
          if (plan.tag.commitId)
            await logs.setTag(workflow.id, plan.tag.commitId, plan.tag.name, plan.tag.message ?? '', clock.now());
          return { received: 0, created: 0 };
        case 'other-branch':
          return { received: plan.received, created: 0 };
        case 'commits': {
          const created = await ingest.ingestCommits(workflow, plan.commits);
          // The host cut its list short: the mirror has the rest (the answer does not wait for it).
          if (plan.resync)
            void sync
              .syncOnce(workflow)
              .catch((err: unknown) => deps.logger?.error({ err }, 'sync after truncated webhook failed'));
          return { received: plan.commits.length, created };
        }
      }
    },

    /**
     * The push API of custom workflows: items reported with the workflow's address (`token`) and secret. Items are
     * identified by the sender's id, so a retry is safe.
     */
    async push(token: string, secret: string, items: CustomPushBody['items']): Promise<InboundAnswer> {
      const workflow = await workflows.findByWebhookToken(token);
      // One answer for an unknown address and a wrong secret: nothing to learn by probing.
      if (!workflow || !sameSecret(secret, deps.box.open(workflow.webhook_secret)))
        throw AppError.unauthorized('推送凭证无效（token 或密钥错误）');
      if (!takesPushes(workflow)) throw AppError.badRequest('该工作流不接收推送：请使用自定义工作流');
      return { received: items.length, created: await ingest.ingestCustom(workflow, items) };
    },

    /** The scheduled poll of every git and svn workflow, one after another; answers how many items were new. */
    pollAll(): Promise<number> {
      return sync.syncAll();
    },

    /**
     * One workflow's poll, unless it was deleted, is no repository workflow (any more), or was synced at or after
     * `unlessSyncedSince` (the first sync after a save, made unnecessary by an editor's 同步 meanwhile).
     */
    async pollWorkflow(workflowId: number, options: { unlessSyncedSince?: number } = {}): Promise<PollOutcome> {
      const workflow = await workflows.findById(workflowId);
      if (!workflow || !isPolled(workflow)) return { skipped: 'not a repository workflow' };
      const since = options.unlessSyncedSince;
      if (since !== undefined && workflow.last_sync_time !== null && workflow.last_sync_time >= since)
        return { skipped: 'synced since' };
      return sync.syncOnce(workflow);
    },

    /** "Refresh" of a repository tab by one of its editors. */
    syncNow(editor: AuthUser, workflowId: number): Promise<SyncResult> {
      return sync.syncNow(editor, workflowId);
    },

    /**
     * A verified Lark document event (lark-docs checks Lark's envelope), queued as a job and read later by the
     * document reader; false when the same event id came before (Lark redelivers until it gets its 200 in 3 s).
     */
    larkDocumentEvent(event: LarkDocumentEvent): Promise<boolean> {
      return larkEvents.accept(event);
    },
  };
}
export type InboundService = ReturnType<typeof createInboundService>;
