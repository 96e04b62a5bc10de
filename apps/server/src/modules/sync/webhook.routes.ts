import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { WEBHOOK_PATH } from '../workflows/workflows.service.ts';
import type { InboundService } from './inbound.service.ts';

/** Push webhooks of GitLab, GitHub and Gitea at a per-workflow address (inbound.service.ts verifies and stores them). */
export function webhookRoutes(inbound: InboundService): FastifyPluginAsync {
  return async (app) => {
    // The signature covers the exact bytes: keep them.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 25 * 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    const schema = {
      tags: ['工作流'],
      summary: '代码仓库 Webhook',
      description:
        '公开，凭地址中的 token 与工作流的 Webhook 密钥访问（地址与密钥在工作流设置中给编辑者看）。接收 GitLab、GitHub、Gitea 的 push 与 tag 事件，按各平台的方式校验（token 请求头或对原始请求体的 HMAC 签名），把所跟踪分支的新提交记为提交记录；同一次投递重复发送不会重复记录。地址不存在或不是 git 工作流 404；无法识别来源 400；签名或 token 不对 401。',
      hide: false,
    };
    app.post<{ Params: { token: string } }>(
      `${WEBHOOK_PATH}:token`,
      { config: { access: 'public' }, schema },
      async (req) => {
        const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        return ok(await inbound.webhook(req.params.token, { headers: req.headers, rawBody }));
      },
    );
  };
}
