import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { CliError, ExitCode } from './exit-codes.ts';
import { text } from './messages.ts';

/** What `release-cli login` stores: the server and the token, readable by the user only. */
const storedConfig = z.object({ server: z.string().optional(), token: z.string().optional() });
export type StoredConfig = z.infer<typeof storedConfig>;

/** The environment the CLI reads: RELEASE_SERVER and RELEASE_TOKEN (CI secrets), and where the config lives. */
export interface CliEnv {
  RELEASE_SERVER?: string;
  RELEASE_TOKEN?: string;
  /** The pause before a refused part's next attempt, in ms, times the attempt number (default 500). */
  RELEASE_RETRY_DELAY_MS?: string;
  /** The language of messages: zh (default) or en. */
  RELEASE_LANG?: string;
  XDG_CONFIG_HOME?: string;
  HOME?: string;
}

export function configPath(env: CliEnv): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'release-cli', 'config.json');
}

export function readConfig(file: string): StoredConfig {
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(ExitCode.usage, text.cannotRead(file, (error as Error).message));
  }
  let json: unknown = null;
  try {
    json = JSON.parse(content);
  } catch {
    // Reported below as not a config.
  }
  const parsed = storedConfig.safeParse(json);
  if (!parsed.success) throw new CliError(ExitCode.usage, text.notAConfig(file));
  return parsed.data;
}

/** Writes the config with mode 0600 (and its folder 0700): it holds a token. */
export function writeConfig(file: string, config: StoredConfig): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
}

/** `https://release.example.com/` → `https://release.example.com`; anything but http(s) is a usage error. */
export function normalizeServer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new CliError(ExitCode.usage, text.notAServerUrl(raw));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(ExitCode.usage, text.serverScheme(raw));
  return url.toString().replace(/\/+$/, '');
}

export interface Connection {
  server: string;
  token: string;
}

/** The server and token to use: --server, then the environment, then the stored config. */
export function resolveConnection(flags: { server?: string }, env: CliEnv): Connection {
  const stored = readConfig(configPath(env));
  const server = flags.server || env.RELEASE_SERVER || stored.server;
  if (!server) throw new CliError(ExitCode.usage, text.noServer);
  const token = env.RELEASE_TOKEN || stored.token;
  if (!token) throw new CliError(ExitCode.auth, text.noToken);
  return { server: normalizeServer(server), token: token.trim() };
}

/** RELEASE_RETRY_DELAY_MS as a number of ms, or undefined (the default) when unset; a bad value is a usage error. */
export function retryDelayMs(env: CliEnv): number | undefined {
  const raw = env.RELEASE_RETRY_DELAY_MS?.trim();
  if (!raw) return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 60_000) throw new CliError(ExitCode.usage, text.badRetryDelay(raw));
  return ms;
}
