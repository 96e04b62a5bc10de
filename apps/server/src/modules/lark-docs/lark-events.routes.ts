import type { FastifyPluginAsync } from 'fastify';
import { LarkDocsMessages } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { LarkEventError, openLarkEvent, type LarkEventKeys } from '../../integrations/lark/lark-event-envelope.ts';
import type { LarkEventsService } from './lark-events.service.ts';

/** Where Lark's console sends events ("request URL" of the event subscription). */
export const LARK_EVENT_PATH = '/api/lark/event';

/**
 * Lark's event push: the url_verification challenge is echoed; events are verified (token, AES, signature over
 * the raw bytes) and handled before the 200 that stops Lark's retries. Off until a verification token or an
 * encrypt key is configured.
 */
export function larkEventRoutes(deps: { keys: LarkEventKeys | null; events: LarkEventsService }): FastifyPluginAsync {
  return async (app) => {
    // The signature covers the exact bytes: keep them.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));

    app.post(LARK_EVENT_PATH, { config: { access: 'public' }, schema: { tags: ['lark'], description: 'Lark event subscription (url_verification, drive.file.* events).' } }, async (req, reply) => {
      const keys = deps.keys;
      if (!keys || (!keys.verificationToken && !keys.encryptKey)) throw AppError.notFound(LarkDocsMessages.eventsNotConfigured);
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
      const outcome = await deps.events.handle(incoming);
      req.log.info({ eventId: incoming.eventId, eventType: incoming.eventType, outcome }, 'lark event');
      return ok(outcome);
    });
  };
}
