import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  contentTypeOf,
  installAccess,
  installAccessQuery,
  installAppBrief,
  installPage,
  installPageQuery,
  kindOfFileName,
  updateInstallAccessBody,
} from '@release/contract';
import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { publicBaseUrl } from '../../http/public-url.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { attachmentDisposition, UPLOADED_CONTENT_HEADERS } from '../../http/byte-range.ts';
import { linksFor, type LinkDeps } from '../../http/links.ts';
import type { InstallAccessService } from './install-access.service.ts';
import {
  DOWNLOAD_PATH,
  HARMONY_MANIFEST_PATH,
  HARMONY_MODULE_PATH,
  MANIFEST_PATH,
  OPEN_HTML_PATH,
  type InstallService,
} from './install.service.ts';
import { buildHarmonyManifest, storedModules } from './harmony-install.ts';
import { buildOtaManifest } from './ota-manifest.ts';
import type { InstallStatsService } from './install-stats.service.ts';
import { ensureInstallDevice, readInstallDevice, startsDownload } from './install-device.ts';

const tags = ['安装页'];
/** An expired link, a forged one, or one handed out before the install password changed. */
const LINK_REFUSED = '链接已过期或签名无效，请刷新安装页面后重试';
const briefQuery = installPageQuery.pick({ url: true });
const manifestQuery = z.object({
  id: z.coerce.number().int().min(1),
  expires: z.coerce.number().int(),
  sig: z.string().max(128),
  /** The signed-in user the page was shown to (signed with the link; install statistics). */
  u: z.coerce.number().int().min(1).optional(),
  /** The page's device id (install statistics). */
  d: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/)
    .optional(),
});
const moduleQuery = manifestQuery.extend({ module: z.coerce.number().int().min(0).max(63) });

/** Who a signed link counts for: its signed user, else the browser's device cookie, else the link's device id. */
function visitOf(req: FastifyRequest, query: { u?: number; d?: string }) {
  return {
    userId: query.u ?? null,
    device: readInstallDevice(req) ?? query.d ?? null,
    ip: req.ip,
    userAgent: req.headers['user-agent'],
  };
}

export function installRoutes(
  deps: { install: InstallService; installAccess: InstallAccessService; stats: InstallStatsService } & LinkDeps,
): FastifyPluginAsyncZod {
  const { install, installAccess: accessService } = deps;
  return async (app) => {
    app.get(
      '/api/app/install_access',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '读取安装密码与免密链接',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028，看不到该应用 404）。返回安装密码、需要密码的下载地址、免密下载地址（/package/<publicPath>）及免密链接是否开启。',
          querystring: installAccessQuery,
          response: { 200: envelopeSchema(installAccess) },
        },
      },
      async (req) => ok(await accessService.get(currentUser(req), req.query.appId, publicBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/app/install_access',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '重置安装密码或开关免密链接',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028，看不到该应用 404）。`regeneratePassword: true` 生成新的安装密码（此前记住密码的访客需重新输入）；`publicInstall` 打开或关闭免密下载链接。返回修改后的安装访问信息。',
          body: updateInstallAccessBody,
          response: { 200: envelopeSchema(installAccess) },
        },
      },
      async (req) => ok(await accessService.update(currentUser(req), req.body, publicBaseUrl(req, deps.publicUrl))),
    );

    app.get(
      '/api/app_version',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '安装页数据',
          description:
            '公开。按下载地址 `url`（应用的下载路径或免密路径）返回应用信息与最近的版本（每个平台最新的可安装版本总在其中；`id`/`packId` 指定的版本排在最前并带详情）。已登录且对该应用有编辑/查看权限的用户和管理员无需密码；其他访客需带正确的安装密码 `password`，或把上次应答的 `token` 放在请求头 `app-version-token` 中。未带密码 400「请输入安装密码」，密码错误 400「安装密码错误」，密码已更改 400，同一地址错误过多 429；下载地址不存在或免密链接已关闭 404。',
          querystring: installPageQuery,
          response: { 200: envelopeSchema(installPage) },
        },
      },
      async (req, reply) => {
        const present = linksFor(req, deps);
        const token = req.headers['app-version-token'];
        return ok(
          await install.page(req.query, {
            token: typeof token === 'string' ? token : undefined,
            device: ensureInstallDevice(req, reply),
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
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '安装页应用信息',
          description:
            '公开。输入安装密码之前的页头：只返回下载地址 `url` 对应应用的名称与图标。下载地址不存在或免密链接已关闭 404。',
          querystring: briefQuery,
          response: { 200: envelopeSchema(installAppBrief) },
        },
      },
      async (req) => ok(await install.brief(req.query.url)),
    );

    // A package from the install page: counted here, on the server (nothing depends on the page's script), then the
    // browser is sent on to the stored file, which may be on S3 or a CDN the server never sees.
    app.get(
      DOWNLOAD_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '下载安装包',
          description:
            '公开，凭链接中的签名访问（由安装页数据给出，有效期有限，安装密码更改后失效）。计入安装统计（同一设备同一天只计一次；续传或只取部分内容的 Range 请求不计；链接签给登录用户时记在其名下，否则按本浏览器的设备 Cookie 计），再 302 跳转到安装包文件。签名无效或过期 10028「链接已过期或签名无效，请刷新安装页面后重试」。',
          querystring: manifestQuery,
        },
      },
      async (req, reply) => {
        const version = await install.signedVersion('download', req.query);
        if (!version) throw AppError.noPermission(LINK_REFUSED);
        // A browser that came without the page's cookie gets one for next time; this time its link's d= or its
        // address and User-Agent name it (a browser refusing cookies still counts once a day).
        ensureInstallDevice(req, reply);
        if (startsDownload(req)) await deps.stats.count('download', version, visitOf(req, req.query));
        const target = await linksFor(req, deps).fileUrl(version.file_key, version.file_name);
        return reply.header('cache-control', 'private, no-store').redirect(target, 302);
      },
    );

    // Fetched by the iOS installer itself, without cookies: the signature in the URL is the permission.
    app.get(
      MANIFEST_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'iOS 安装清单',
          description:
            '公开，凭链接中的签名访问（由安装页数据给出，有效期有限，安装密码更改后失效）。返回 iOS 通过 itms-services 安装 ipa 所需的 manifest.plist。签名无效或过期 10028「链接已过期或签名无效，请刷新安装页面后重试」；不是 iOS 版本 404。',
          querystring: manifestQuery,
        },
      },
      async (req, reply) => {
        const version = await install.signedVersion('manifest', req.query);
        if (!version) throw AppError.noPermission(LINK_REFUSED);
        if (version.native_package_type !== 'ios') throw AppError.notFound('版本不存在');
        await deps.stats.count('install', version, visitOf(req, req.query));
        const present = linksFor(req, deps);
        const xml = buildOtaManifest({
          packageUrl: await present.fileUrl(version.file_key, version.file_name),
          iconUrl: present.iconUrl(version.icon_key),
          bundleId: version.bundle_id ?? '',
          version: version.app_version ?? version.build ?? '1.0',
          title: version.display_name ?? version.file_name,
        });
        return reply.header('content-type', 'text/xml; charset=utf-8').header('cache-control', 'no-store').send(xml);
      },
    );

    // 打开 of an html package, on either store: the page itself, inline but sandboxed in an opaque origin
    // (UPLOADED_CONTENT_HEADERS), so it cannot read this site's sign-in token. Signed like the manifest.
    app.get(
      OPEN_HTML_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '打开 H5 安装包',
          description:
            '公开，凭链接中的签名访问（由安装页数据给出）。在隔离的沙箱中直接打开 html 类型的版本。签名无效或过期 10028「链接已过期或签名无效，请刷新安装页面后重试」；不是 html 版本或文件已删除 404。',
          querystring: manifestQuery,
        },
      },
      async (req, reply) => {
        const version = await install.signedVersion('open-html', req.query);
        if (!version) throw AppError.noPermission(LINK_REFUSED);
        if (kindOfFileName(version.file_name) !== 'html') throw AppError.notFound('版本不存在');
        const stat = await deps.blobs.stat(version.file_key);
        if (!stat) throw AppError.notFound('文件不存在或已被删除');
        if (startsDownload(req)) await deps.stats.count('download', version, visitOf(req, req.query));
        return reply
          .headers(UPLOADED_CONTENT_HEADERS)
          .header('content-type', contentTypeOf(version.file_name))
          .header('content-disposition', attachmentDisposition(version.file_name, 'inline'))
          .header('content-length', stat.size)
          .header('cache-control', 'private, no-store')
          .send(await deps.blobs.read(version.file_key));
      },
    );

    // Fetched by the HarmonyOS installer (store://enterprise/manifest) and by people downloading modules: signed links.
    app.get(
      HARMONY_MODULE_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '下载 HarmonyOS 模块',
          description:
            '公开，凭链接中的签名访问（由安装页数据给出）。下载 HarmonyOS 版本的第 `module` 个模块（.hap / .hsp，一起上传的模块从合成的 .app 中取出）。签名无效或过期 10028；没有该模块 404。',
          querystring: moduleQuery,
        },
      },
      async (req, reply) => {
        const version = await install.signedVersion('harmony-module', req.query);
        if (!version) throw AppError.noPermission(LINK_REFUSED);
        const module = storedModules(version)[req.query.module];
        if (!module) throw AppError.notFound('模块不存在');
        // A person's download (the page's link, or a browser with the page's cookie); the installer's own fetches of
        // the modules its manifest lists were counted as the install.
        const visit = visitOf(req, req.query);
        if ((visit.userId || visit.device) && startsDownload(req)) await deps.stats.count('download', version, visit);
        const range = { start: module.offset, end: module.offset + module.size - 1 };
        return reply
          .header('content-type', contentTypeOf(module.fileName))
          .header('content-disposition', attachmentDisposition(module.fileName, 'attachment'))
          .header('content-length', module.size)
          .header('cache-control', 'private, no-store')
          .send(module.size === 0 ? Buffer.alloc(0) : await deps.blobs.read(version.file_key, range));
      },
    );

    app.get(
      HARMONY_MANIFEST_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'HarmonyOS 企业分发安装清单',
          description:
            '公开，凭链接中的签名访问（由安装页数据给出）。返回 store://enterprise/manifest 读取的安装清单：模块的下载地址与 SHA-256 由服务器填写，图标由本系统提供，`sign` 与它签名的字段取自随版本上传、与安装包核对一致且用安装包的签名证书验签通过的签名清单；没有随版本上传的签名清单时，由服务器用管理员上传的、与安装包签名证书同一密钥的鸿蒙签名证书签名。签名无效或过期 10028；没有可用的签名清单 404。',
          querystring: manifestQuery,
        },
      },
      async (req, reply) => {
        const version = await install.signedVersion('harmony-manifest', req.query);
        if (!version) throw AppError.noPermission(LINK_REFUSED);
        const modules = storedModules(version);
        const signed = modules.length ? await install.signedManifest(version, modules) : null;
        if (!signed || 'problem' in signed) throw AppError.notFound(signed?.problem ?? '版本不存在');
        await deps.stats.count('install', version, visitOf(req, req.query));
        const present = linksFor(req, deps);
        const manifest = buildHarmonyManifest({
          modules,
          moduleUrl: await install.moduleLinks(present, version),
          iconUrl: present.iconUrl(version.icon_key),
          deployDomain: new URL(present.apiBase).host,
          signed,
        });
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(JSON.stringify(manifest));
      },
    );
  };
}
