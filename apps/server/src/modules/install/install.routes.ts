import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { installAccess, installAccessQuery, installAppBrief, installPage, installPageQuery, updateInstallAccessBody } from '@release/contract';
import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { publicBaseUrl } from '../../http/public-url.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { attachmentDisposition, UPLOADED_CONTENT_HEADERS } from '../../http/byte-range.ts';
import { contentTypeOf, isHtmlFile, presenterFor, type LinkDeps } from '../versions/version-presenter.ts';
import type { InstallAccessService } from './install-access.service.ts';
import { MANIFEST_PATH, OPEN_HTML_PATH, type InstallService } from './install.service.ts';
import { buildOtaManifest } from './ota-manifest.ts';

const tags = ['install'];
/** An expired link, a forged one, or one handed out before the install password changed. */
const LINK_REFUSED = '链接已过期或签名无效，请刷新安装页面后重试';
const briefQuery = installPageQuery.pick({ url: true });
const manifestQuery = z.object({ id: z.coerce.number().int().min(1), expires: z.coerce.number().int(), sig: z.string().max(128) });

export function installRoutes(deps: { install: InstallService; installAccess: InstallAccessService } & LinkDeps): FastifyPluginAsyncZod {
  const { install, installAccess: accessService } = deps;
  return async (app) => {
    app.get(
      '/api/app/install_access',
      { config: { access: 'user' }, schema: { tags, description: 'Editors and admins: the install password and the password-free link of an app.', querystring: installAccessQuery, response: { 200: envelopeSchema(installAccess) } } },
      async (req) => ok(await accessService.get(currentUser(req), req.query.appId, publicBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/app/install_access',
      {
        config: { access: 'user' },
        schema: { tags, description: 'Editors and admins: draw a new install password (ends remembered passes) and/or turn the password-free link on or off.', body: updateInstallAccessBody, response: { 200: envelopeSchema(installAccess) } },
      },
      async (req) => ok(await accessService.update(currentUser(req), req.body, publicBaseUrl(req, deps.publicUrl))),
    );

    app.get(
      '/api/app_version',
      { config: { access: 'public' }, schema: { tags, description: 'Install page data; send the answered token back as the `app-version-token` header.', querystring: installPageQuery, response: { 200: envelopeSchema(installPage) } } },
      async (req) => {
        const present = presenterFor(req, deps);
        const token = req.headers['app-version-token'];
        return ok(
          await install.page(req.query, {
            token: typeof token === 'string' ? token : undefined,
            ip: req.ip,
            viewer: req.user,
            present,
            secure: present.apiBase.startsWith('https://'),
          }),
        );
      },
    );

    app.get(
      '/api/app_version/app',
      { config: { access: 'public' }, schema: { tags, description: 'The install password gate: app name and icon only.', querystring: briefQuery, response: { 200: envelopeSchema(installAppBrief) } } },
      async (req) => ok(await install.brief(req.query.url)),
    );

    // Fetched by the iOS installer itself, without cookies: the signature in the URL is the permission.
    app.get(MANIFEST_PATH, { config: { access: 'public' }, schema: { tags, querystring: manifestQuery } }, async (req, reply) => {
      const version = await install.signedVersion('manifest', req.query);
      if (!version) throw AppError.noPermission(LINK_REFUSED);
      if (version.native_package_type !== 'ios') throw AppError.notFound('版本不存在');
      const present = presenterFor(req, deps);
      const xml = buildOtaManifest({
        packageUrl: await present.fileUrl(version.file_key, version.file_name),
        iconUrl: present.iconUrl(version.icon_key),
        bundleId: version.bundle_id ?? '',
        version: version.app_version ?? version.build ?? '1.0',
        title: version.display_name ?? version.file_name,
      });
      return reply.header('content-type', 'text/xml; charset=utf-8').header('cache-control', 'no-store').send(xml);
    });

    // 打开 of an html package, on either store: the page itself, inline but sandboxed in an opaque origin
    // (UPLOADED_CONTENT_HEADERS), so it cannot read this site's sign-in token. Signed like the manifest.
    app.get(OPEN_HTML_PATH, { config: { access: 'public' }, schema: { tags, querystring: manifestQuery } }, async (req, reply) => {
      const version = await install.signedVersion('open-html', req.query);
      if (!version) throw AppError.noPermission(LINK_REFUSED);
      if (!isHtmlFile(version.file_name)) throw AppError.notFound('版本不存在');
      const stat = await deps.blobs.stat(version.file_key);
      if (!stat) throw AppError.notFound('文件不存在或已被删除');
      return reply
        .headers(UPLOADED_CONTENT_HEADERS)
        .header('content-type', contentTypeOf(version.file_name))
        .header('content-disposition', attachmentDisposition(version.file_name, 'inline'))
        .header('content-length', stat.size)
        .header('cache-control', 'private, no-store')
        .send(await deps.blobs.read(version.file_key));
    });
  };
}
