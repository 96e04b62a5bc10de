import { redactSecrets } from '../git/remote-url.ts';
import { REPO_UNREACHABLE, wholeSeconds, type RemoteLimits } from '../repo-access/repo-access-error.ts';
import { runChild } from '../repo-access/run-child.ts';

export type SvnErrorReason = 'invalid_url' | 'command_failed' | 'timeout' | 'bad_output' | 'unreachable' | 'refused';

const messages: Record<SvnErrorReason, string> = {
  invalid_url: 'SVN 地址不合法：仅支持 https://、http://、svn://、svn+ssh:// 或 file:// 地址',
  command_failed: 'SVN 命令执行失败',
  unreachable: REPO_UNREACHABLE,
  refused: 'SVN 仓库拒绝访问：请确认账号和密码有读取权限',
  timeout: 'SVN 命令执行超时',
  bad_output: '无法解析 SVN 的输出',
};

/**
 * An svn failure. `codes` are svn's stable error numbers from stderr (`E170013` cannot connect, `E215004`
 * authentication failed, `E160013` path not found, ...), `detail` its redacted stderr for admins.
 */
export class SvnError extends Error {
  readonly reason: SvnErrorReason;
  readonly codes: string[];
  readonly detail: string;

  /** `message` replaces the reason's own (a refused URL says which forms this server accepts). */
  constructor(reason: SvnErrorReason, detail = '', message = messages[reason]) {
    super(message);
    this.name = 'SvnError';
    this.reason = reason;
    this.detail = redactSecrets(detail).slice(-4000);
    this.codes = [...new Set(detail.match(/\bE\d{6}\b/g) ?? [])];
  }
}

export interface SvnAuth {
  username?: string;
  /** Sent through stdin (`--password-from-stdin`), never on the command line. */
  password?: string;
}

export interface SvnRunOptions extends SvnAuth {
  timeoutMs?: number;
  /** svn's configuration directory; default: svn's own (~/.subversion). */
  configDir?: string;
  /** Accept file:// URLs (repositories on the server's own disk). Default true. */
  allowFile?: boolean;
  /**
   * A run that talks to a remote: its idle limit (http-timeout, ssh's ConnectTimeout for svn+ssh); the command limit
   * replaces timeoutMs. Its failures say only "cannot connect" — or "refused" when the server asked for credentials.
   */
  remote?: RemoteLimits;
}

/** svn's authorization failed, no more credentials, access forbidden (HTTP 403). */
const REFUSED_CODES = new Set(['E170001', 'E215004', 'E175013']);

function remoteArgs(remote: RemoteLimits): string[] {
  const ssh = `ssh -q -o BatchMode=yes -o ConnectTimeout=${wholeSeconds(remote.timeouts.connectMs)} -o ServerAliveInterval=${Math.max(1, Math.ceil(wholeSeconds(remote.timeouts.idleMs) / 3))} -o ServerAliveCountMax=3 --`;
  return [
    '--config-option',
    `servers:global:http-timeout=${wholeSeconds(remote.timeouts.idleMs)}`,
    '--config-option',
    `config:tunnels:ssh=${ssh}`,
  ];
}

const DEFAULT_TIMEOUT_MS = 2 * 60_000;
const MAX_BUFFER = 256 * 1024 * 1024;
const SCHEMES = new Set(['https:', 'http:', 'svn:', 'svn+ssh:', 'file:']);
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])$/;

/** True for a repository URL svn may be pointed at; refuses options, control characters and other schemes. */
export function isAllowedSvnUrl(url: string, options: Pick<SvnRunOptions, 'allowFile'> = {}): boolean {
  if (url.length === 0 || url.length > 2048 || /[\s\x00-\x1f\x7f]/.test(url) || url.startsWith('-')) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (!SCHEMES.has(parsed.protocol)) return false;
  if (parsed.protocol === 'file:')
    return options.allowFile !== false && (parsed.hostname === '' || parsed.hostname === 'localhost');
  return HOST.test(parsed.hostname) && !parsed.username.startsWith('-');
}

/** The URL as an svn target: a trailing `@` pins the peg revision, so an `@` inside the path stays part of it. */
export function svnTarget(url: string): string {
  return `${url.replace(/\/+$/, '')}@`;
}

/** Runs `svn <args>` non-interactively without a shell; resolves with stdout, rejects with an SvnError. */
export async function runSvn(args: readonly string[], options: SvnRunOptions = {}): Promise<string> {
  const full = ['--non-interactive', '--no-auth-cache'];
  if (options.configDir !== undefined) full.push('--config-dir', options.configDir);
  if (options.username !== undefined) full.push('--username', options.username);
  if (options.password !== undefined) full.push('--password-from-stdin');
  if (options.remote) full.push(...remoteArgs(options.remote));
  full.push(...args);
  const timeoutMs = options.remote?.timeouts.commandMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const run = await runChild('svn', full, {
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
    input: options.password !== undefined ? `${options.password}\n` : '',
    timeoutMs,
    maxBuffer: MAX_BUFFER,
  });
  if (run.code === 0) return run.stdout;
  const command = args[0] ?? '';
  if (run.overflow) throw new SvnError('bad_output', `svn ${command}: output too large`);
  const detail = `svn ${command} (${String(run.code ?? run.spawnError)}): ${run.stderr || run.spawnError || 'killed'}`;
  if (options.remote) {
    const failure = new SvnError('command_failed', detail);
    // Asking beyond the youngest revision is an answer, not a failure (readSvnLog takes it).
    if (failure.codes.includes('E160006')) throw failure;
    throw new SvnError(failure.codes.some((code) => REFUSED_CODES.has(code)) ? 'refused' : 'unreachable', detail);
  }
  if (run.timedOut) throw new SvnError('timeout', `svn ${command}: ${run.stderr}`);
  throw new SvnError('command_failed', detail);
}
