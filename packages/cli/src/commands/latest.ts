import { createApiClient } from '../api-client.ts';
import type { Command } from '../args.ts';
import { resolveConnection } from '../config.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import type { Io, Output } from '../output.ts';
import { text } from '../messages.ts';
import { describeVersion } from './upload.ts';

type LatestCommand = Extract<Command, { name: 'latest' }>;

/** `release-cli latest`: the newest version of one platform; exit 4 when there is none yet. */
export async function latestCommand(cmd: LatestCommand, io: Io, out: Output): Promise<void> {
  const api = createApiClient(resolveConnection({ server: cmd.server }, io.env));
  const version = await api.latest(cmd.app, cmd.platform);
  if (!version) throw new CliError(ExitCode.notFound, text.noVersionYet(cmd.app, cmd.platform));
  out.info(describeVersion(version));
  out.info(text.uploadedAt(new Date(version.createTime).toISOString(), version.uploadBy || null));
  if (version.description) out.info(version.description);
  out.info(version.cdnUrl);
  out.result({ ok: true, version });
}
