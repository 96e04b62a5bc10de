import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DEVICE_ENROLL_BODY_MAX_BYTES,
  deviceEnrollLink,
  deviceEnrollProfileQuery,
  deviceEnrollResult,
  deviceEnrollResultQuery,
  installEnrollBody,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import { z } from 'zod';
import { CALLBACK_PATH, PROFILE_PATH, type DeviceEnrollService } from './device-enroll.service.ts';

/** Checked by the service (a missing or wrong `s` gets the link message, not a schema error). */
const deviceEnrollCallbackQuery = z.object({ s: z.string().max(200).optional() });

const tags = ['device-enroll'];

export function deviceEnrollRoutes(deps: { enroll: DeviceEnrollService; publicUrl?: string }): FastifyPluginAsyncZod {
  const { enroll } = deps;
  return async (app) => {
    app.post(
      '/api/device_enroll',
      { config: { access: 'user' }, schema: { tags, description: 'A one-time link to the `.mobileconfig` that registers the caller\'s own iPhone (open it in Safari on the device).', response: { 200: envelopeSchema(deviceEnrollLink) } } },
      async (req) => ok(await enroll.startForUser(currentUser(req), shareBaseUrl(req, deps.publicUrl))),
    );

    app.post(
      '/api/device_enroll/install',
      {
        config: { access: 'public' },
        schema: {
          tags,
          description: 'From an install page: send its `app-version-token` header (the visitor passed the install password). At most 30 per app and hour.',
          body: installEnrollBody,
          response: { 200: envelopeSchema(deviceEnrollLink) },
        },
      },
      async (req) => {
        const token = req.headers['app-version-token'];
        return ok(await enroll.startForInstall(req.body, typeof token === 'string' ? token : undefined, shareBaseUrl(req, deps.publicUrl)));
      },
    );

    // Opened by Safari on the device, without a session: the one-time challenge in the link is the permission.
    app.get(PROFILE_PATH, { config: { access: 'public' }, schema: { tags, querystring: deviceEnrollProfileQuery } }, async (req, reply) => {
      const profile = await enroll.profile(req.query.c, shareBaseUrl(req, deps.publicUrl));
      return reply
        .header('content-type', 'application/x-apple-aspen-config')
        .header('content-disposition', 'attachment; filename="register-device.mobileconfig"')
        .header('cache-control', 'no-store')
        .send(profile.body);
    });

    // Posted by iOS itself after the profile is installed; the challenge inside the signed answer is single-use.
    // Any body is read raw and bounded, so a wrong type gets our own clear answer instead of a parser's.
    await app.register(async (device) => {
      device.removeAllContentTypeParsers();
      device.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DEVICE_ENROLL_BODY_MAX_BYTES }, (_req, body, done) => done(null, body));
      device.post(CALLBACK_PATH, { config: { access: 'public' }, schema: { tags, querystring: deviceEnrollCallbackQuery, description: 'The device\'s CMS-signed plist (UDID, PRODUCT, VERSION, SERIAL, CHALLENGE), posted to the URL of its profile (`s` names the registration); answers 301 to the result page.' } }, async (req, reply) => {
        const location = await enroll.receive(req.body, req.headers['content-type'], (req.query as { s?: string }).s, shareBaseUrl(req, deps.publicUrl));
        return reply.code(301).header('location', location).header('cache-control', 'no-store').send();
      });
    });

    app.get(
      '/api/device_enroll/result',
      { config: { access: 'public' }, schema: { tags, description: 'The result page\'s data; the signed link from the 301 is the permission.', querystring: deviceEnrollResultQuery, response: { 200: envelopeSchema(deviceEnrollResult) } } },
      async (req) => ok(await enroll.result(req.query.id, req.query.sig)),
    );
  };
}
