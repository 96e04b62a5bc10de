import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { cachedCliBundle, defaultCliBundleSource } from './cli-bundle.ts';
import { cliDownloadRoutes } from './cli-download.routes.ts';

/** GET /cli/release-cli.mjs: the CLI as one file. */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(cliDownloadRoutes(cachedCliBundle(core.config.cliBundle ?? defaultCliBundleSource())));
}
