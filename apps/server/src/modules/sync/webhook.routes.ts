import type { FastifyPluginAsync } from 'fastify';
import { branchNames } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { detectWebhookProvider, parsePushWebhook, WebhookError, webhookDeliveryKey } from '../../integrations/webhooks/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { CommitIngestService } from '../commit-logs/commit-ingest.service.ts';
import type { CommitLogsRepository } from '../commit-logs/commit-logs.repository.ts';
import { WEBHOOK_PATH } from '../workflows/workflows.service.ts';
import type { WorkflowsRepository } from '../workflows/workflows.repository.ts';
import type { RepoSyncService } from './repo-sync.service.ts';

export interface WebhookDeps {
  workflows: WorkflowsRepository;
  logs: CommitLogsRepository;
  ingest: CommitIngestService;
  sync: RepoSyncService;
  box: SecretBox;
  clock: Clock;
}

/**
 * Push webhooks of GitLab, GitHub and Gitea at a per-workflow address, verified the way each host signs
 * (token header or HMAC over the raw body) with the workflow's secret; a delivery seen before changes nothing.
 */
export function webhookRoutes(deps: WebhookDeps): FastifyPluginAsync {
  return async (app) => {
    // The signature covers the exact bytes: keep them.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 25 * 1024 * 1024 }, (_req, body, done) => done(null, body));

    const schema = {
      tags: ['工作流'],
      summary: '代码仓库 Webhook',
      description:
        '公开，凭地址中的 token 与工作流的 Webhook 密钥访问（地址与密钥在工作流设置中给编辑者看）。接收 GitLab、GitHub、Gitea 的 push 与 tag 事件，按各平台的方式校验（token 请求头或对原始请求体的 HMAC 签名），把所跟踪分支的新提交记为提交记录；同一次投递重复发送不会重复记录。地址不存在或不是 git 工作流 404；无法识别来源 400；签名或 token 不对 401。',
      hide: false,
    };
    app.post<{ Params: { token: string } }>(`${WEBHOOK_PATH}:token`, { config: { access: 'public' }, schema }, async (req) => {
      const workflow = await deps.workflows.findByWebhookToken(req.params.token);
      if (!workflow || workflow.repo_type !== 'git') throw AppError.notFound('Webhook 地址不存在');
      const provider = detectWebhookProvider(req.headers);
      if (!provider) throw AppError.badRequest('无法识别的 Webhook 来源（支持 GitLab、GitHub、Gitea）');
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let event;
      try {
        event = parsePushWebhook(provider, { headers: req.headers, rawBody }, { secret: deps.box.open(workflow.webhook_secret) });
      } catch (error) {
        if (!(error instanceof WebhookError)) throw error;
        if (error.reason === 'bad_signature' || error.reason === 'missing_signature') throw AppError.unauthorized(`${error.message}（请检查 Webhook 密钥/token）`);
        throw AppError.badRequest(error.message);
      }
      if (event.kind === 'ping' || event.kind === 'ignored') return ok({ received: 0, created: 0 });
      const fresh = await deps.logs.recordDelivery(workflow.id, webhookDeliveryKey({ deliveryId: event.deliveryId }, rawBody), deps.clock.now());
      if (!fresh) return ok({ received: event.commits.length, created: 0, duplicate: true });

      if (event.kind === 'tag' && event.tag && !event.deleted) {
        if (event.tag.commitId) await deps.logs.setTag(workflow.id, event.tag.commitId, event.tag.name, event.tag.message ?? '', deps.clock.now());
        return ok({ received: 0, created: 0 });
      }
      const branches = branchNames(workflow.default_branch);
      if (branches.length && (!event.branch || !branches.includes(event.branch))) return ok({ received: event.commits.length, created: 0 });
      const created = await deps.ingest.ingestCommits(workflow, event.commits);
      // The host cut its list short: the mirror has the rest.
      if (event.truncated) void deps.sync.syncOnce(workflow).catch((err: unknown) => req.log.error({ err }, 'sync after truncated webhook failed'));
      return ok({ received: event.commits.length, created });
    });
  };
}
