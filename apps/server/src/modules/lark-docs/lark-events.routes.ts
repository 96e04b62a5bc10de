import type { FastifyPluginAsync } from 'fastify';
import { LarkDocsMessages } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { LarkEventError, openLarkEvent, type LarkEventKeys } from '../../integrations/lark/lark-event-envelope.ts';
import type { IncomingEvent } from './lark-events.service.ts';

/** Where Lark's console sends events ("request URL" of the event subscription). */
export const LARK_EVENT_PATH = '/api/lark/event';

/**
 * Lark's event push: the url_verification challenge is echoed; events are verified (token, AES, signature over
 * the raw bytes) and queued as a job before the 200 that stops Lark's retries (Lark waits 3 s at most; the work
 * reads Lark's document API and is done by the job runner). Off until a verification token or an encrypt key is
 * configured.
 */
export function larkEventRoutes(deps: {
  keys: LarkEventKeys | null;
  /** Queues a verified event (the inbound service); false for a redelivery. */
  accept: (incoming: IncomingEvent) => Promise<boolean>;
}): FastifyPluginAsync {
  return async (app) => {
    // The signature covers the exact bytes: keep them.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    app.post(
      LARK_EVENT_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags: ['飞书事件'],
          summary: '飞书事件回调',
          description:
            '公开，由飞书开放平台调用，按 LARK_VERIFICATION_TOKEN 校验（配置了 LARK_ENCRYPT_KEY 时解密并验签）。应答 url_verification 质询，把云文档变更（drive.file.*）等事件放入队列；同一事件重复推送只处理一次。未配置事件订阅 404；请求体无法读取 400；签名或 token 不对 401。',
        },
      },
      async (req, reply) => {
        const keys = deps.keys;
        if (!keys || (!keys.verificationToken && !keys.encryptKey))
          throw AppError.notFound(LarkDocsMessages.eventsNotConfigured);
        const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        let incoming;
        try {
          incoming = openLarkEvent({ headers: req.headers, rawBody }, keys);
        } catch (error) {
          if (!(error instanceof LarkEventError)) throw error;
          req.log.warn({ reason: error.reason }, 'lark event refused');
          if (error.reason === 'bad_body') throw AppError.badRequest(error.message);
          throw AppError.unauthorized(error.message);
        }
        if (incoming.kind === 'challenge') return reply.send({ challenge: incoming.challenge });
        const queued = await deps.accept(incoming);
        req.log.info({ eventId: incoming.eventId, eventType: incoming.eventType, queued }, 'lark event');
        return ok({ status: queued ? 'queued' : 'duplicate' });
      },
    );
  };
}
