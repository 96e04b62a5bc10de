import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CliBundle } from './cli-bundle.ts';

export const CLI_DOWNLOAD_PATH = '/cli/release-cli.mjs';

type Encoding = 'br' | 'gzip' | 'identity';

/** br, then gzip, when Accept-Encoding allows them (q=0 refuses one); else the plain file. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('x-gzip')) return 'gzip';
  return 'identity';
}

/**
 * `GET /cli/release-cli.mjs`: the CLI as one file for CI (`curl -fsSL … | node - upload …`). Public: the file is the
 * same for everyone and holds no secret or address (the token and server come from the job's variables), and a
 * job must be able to fetch its tool before anything else. `no-cache` with an ETag per encoding: every job
 * revalidates (304 when unchanged), so it always runs the CLI of the server it talks to.
 */
export function cliDownloadRoutes(bundle: () => Promise<CliBundle>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(CLI_DOWNLOAD_PATH, { schema: { hide: true }, compress: false }, async (request, reply) => {
      const file = await bundle();
      const encoding = chooseEncoding(request.headers['accept-encoding']);
      const etag = `"${file.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`;
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, no-cache')
        .header('vary', 'accept-encoding')
        .header('etag', etag);
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*'))
        return reply.status(304).send();
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(encoding === 'br' ? file.br : encoding === 'gzip' ? file.gzip : file.identity);
    });
  };
}
