import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { Messages, ResultCode, type InstallBoot } from '@release/contract';

/** The install page's routes (SPEC §2): their own small entry, install.html. */
export const INSTALL_ROUTES = ['/package/:path', '/ios/:path', '/android/:path'] as const;
/** Where Safari lands after a phone registered its UDID: the same small entry (apps/web/src/install/enroll-result.tsx). */
export const ENROLL_RESULT_ROUTE = '/device-enroll/result';
const ENROLL_RESULT_TITLE = '设备注册结果 - 发布系统';

export interface WebAppOptions {
  /** What install.html carries for a link (modules/install boot); without it the page asks the API first. */
  installBoot?: (path: string) => Promise<InstallBoot>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** install.html with the link's title (`<app> - 安装`, also what chat link previews show) and its boot data (JSON, never run). */
export function installHtml(template: string, boot: InstallBoot | null): string {
  if (!boot) return template;
  const title = boot.app ? `${boot.app.appName} - 安装` : '安装 - 发布系统';
  const data = JSON.stringify(boot).replace(/</g, '\\u003c');
  return withTitle(template, title).replace(
    '</head>',
    `<script type="application/json" id="install-boot">${data}</script></head>`,
  );
}

const withTitle = (template: string, title: string): string =>
  template.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);

/** Serves the built web app; unknown non-API GETs get index.html so client routes load directly. */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string | undefined,
  options: WebAppOptions = {},
): Promise<void> {
  const hasWeb = distDir !== undefined && fs.existsSync(path.join(distDir, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      // The .br and .gz files the build writes beside each file (apps/web/vite.config.ts), when the browser accepts them.
      preCompressed: true,
      // Vite names assets by content hash, so they never change; index.html must always be fresh.
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
    const installFile = path.join(distDir, 'install.html');
    if (fs.existsSync(installFile)) {
      let template: string | null = null;
      for (const route of INSTALL_ROUTES) {
        app.get<{ Params: { path: string } }>(route, async (request, reply) => {
          template ??= await fs.promises.readFile(installFile, 'utf8');
          // A database hiccup only costs the page one round trip: it asks the API itself.
          const boot = options.installBoot ? await options.installBoot(request.params.path).catch(() => null) : null;
          return reply
            .header('cache-control', 'no-cache')
            .type('text/html; charset=utf-8')
            .send(installHtml(template, boot));
        });
      }
      app.get(ENROLL_RESULT_ROUTE, async (_request, reply) => {
        template ??= await fs.promises.readFile(installFile, 'utf8');
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(withTitle(template, ENROLL_RESULT_TITLE));
      });
    }
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const wantsPage = request.method === 'GET' && !pathname.startsWith('/api/') && pathname !== '/api';
    if (hasWeb && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ code: ResultCode.notFound, msg: `${Messages.notFound}：${request.method} ${pathname}`, data: null });
  });
}
