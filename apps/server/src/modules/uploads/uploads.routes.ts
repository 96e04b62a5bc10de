import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appVersionRow, getSignedUrlBody, getSignedUrlResult, multipartBody, multipartFinishResult, multipartStartResult, uploadAppBody } from '@release/contract';
import { z } from 'zod';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { publicBaseUrl, shareBaseUrl } from '../../http/public-url.ts';
import type { PackageRegistrationService } from '../versions/package-registration.service.ts';
import { presenterFor, type LinkDeps } from '../versions/version-presenter.ts';
import type { UploadsService } from './uploads.service.ts';

const tags = ['uploads'];

export function uploadsRoutes(deps: { uploads: UploadsService; registration: PackageRegistrationService } & LinkDeps): FastifyPluginAsyncZod {
  const { uploads, registration } = deps;
  return async (app) => {
    app.post('/api/get_signed_url', { config: { access: 'user' }, schema: { tags, body: getSignedUrlBody, response: { 200: envelopeSchema(getSignedUrlResult) } } }, async (req) =>
      ok(await uploads.issueKeys(currentUser(req), req.body)),
    );

    app.post(
      '/api/multi_signed_url_upload',
      { config: { access: 'user' }, schema: { tags, body: multipartBody, response: { 200: envelopeSchema(z.union([multipartStartResult, multipartFinishResult])) } } },
      async (req) => {
        const user = currentUser(req);
        const body = req.body;
        if (body.functionName === 'start') return ok(await uploads.start(user, body.fileKey, body.fileSize, publicBaseUrl(req, deps.publicUrl)));
        return ok(await uploads.finish(user.userId, body.fileKey, body.uploadId, body.tags));
      },
    );

    const register = async (req: { body: z.infer<typeof uploadAppBody> } & Parameters<typeof currentUser>[0]) => {
      const version = await registration.register(currentUser(req), req.body, { baseUrl: shareBaseUrl(req, deps.publicUrl) });
      return ok(await presenterFor(req, deps).row(version));
    };
    const schema = { tags, body: uploadAppBody, response: { 200: envelopeSchema(appVersionRow) } };
    app.post('/api/v2/upload_app', { config: { access: 'user' }, schema }, register);
    // The older path takes the same payload (SPEC §7 lists it without one).
    app.post('/api/upload_app', { config: { access: 'user' }, schema }, register);
  };
}
