import { createApiClient } from '../api-client.ts';
import type { Command } from '../args.ts';
import { resolveConnection } from '../config.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import type { Io, Output } from '../output.ts';
import { describeVersion } from './upload.ts';

type LatestCommand = Extract<Command, { name: 'latest' }>;

/** `release-cli latest`: the newest version of one platform; exit 4 when there is none yet. */
export async function latestCommand(cmd: LatestCommand, io: Io, out: Output): Promise<void> {
  const api = createApiClient(resolveConnection({ server: cmd.server }, io.env));
  const version = await api.latest(cmd.app, cmd.platform);
  if (!version) throw new CliError(ExitCode.notFound, `${cmd.app} has no ${cmd.platform} version yet`);
  out.info(describeVersion(version));
  out.info(`uploaded ${new Date(version.createTime).toISOString()}${version.uploadBy ? ` by ${version.uploadBy}` : ''}`);
  if (version.description) out.info(version.description);
  out.info(version.cdnUrl);
  out.result({ ok: true, version });
}
