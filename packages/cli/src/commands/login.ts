import { createApiClient } from '../api-client.ts';
import type { Command } from '../args.ts';
import { configPath, normalizeServer, readConfig, writeConfig } from '../config.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import type { Io, Output } from '../output.ts';

type LoginCommand = Extract<Command, { name: 'login' }>;

/** `release-cli login`: checks a token against the server, then remembers both for later commands. */
export async function loginCommand(cmd: LoginCommand, io: Io, out: Output): Promise<void> {
  const file = configPath(io.env);
  const stored = readConfig(file);
  const rawServer = cmd.server || io.env.RELEASE_SERVER || stored.server;
  if (!rawServer) throw new CliError(ExitCode.usage, 'no server: pass --server <url> or set RELEASE_SERVER');
  const token = (cmd.token || io.env.RELEASE_TOKEN || '').trim();
  if (!token) throw new CliError(ExitCode.usage, 'no token: pass --token <token> (create one with POST /api/api_token, see docs/ci-pipelines.md)');
  const server = normalizeServer(rawServer);
  const me = await createApiClient({ server, token }).me();
  writeConfig(file, { server, token });
  out.info(`Signed in to ${server} as ${me.username}; saved in ${file}`);
  out.result({ ok: true, server, username: me.username, config: file });
}
