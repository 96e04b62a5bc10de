import { createApiClient } from '../api-client.ts';
import type { Command } from '../args.ts';
import { configPath, normalizeServer, readConfig, writeConfig } from '../config.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import type { Io, Output } from '../output.ts';
import { text } from '../messages.ts';

type LoginCommand = Extract<Command, { name: 'login' }>;

/** `release-cli login`: checks a token against the server, then remembers both for later commands. */
export async function loginCommand(cmd: LoginCommand, io: Io, out: Output): Promise<void> {
  const file = configPath(io.env);
  const stored = readConfig(file);
  const rawServer = cmd.server || io.env.RELEASE_SERVER || stored.server;
  if (!rawServer) throw new CliError(ExitCode.usage, text.noServer);
  const token = (cmd.token || io.env.RELEASE_TOKEN || '').trim();
  if (!token) throw new CliError(ExitCode.usage, text.loginNeedsToken);
  const server = normalizeServer(rawServer);
  const me = await createApiClient({ server, token }).me();
  writeConfig(file, { server, token });
  out.info(text.signedIn(server, me.username, file));
  out.result({ ok: true, server, username: me.username, config: file });
}
