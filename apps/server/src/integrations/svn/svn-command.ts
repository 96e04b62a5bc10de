import { execFile } from 'node:child_process';
import { redactSecrets } from '../git/remote-url.ts';

export type SvnErrorReason = 'invalid_url' | 'command_failed' | 'timeout' | 'bad_output';

const messages: Record<SvnErrorReason, string> = {
  invalid_url: 'SVN 地址不合法：仅支持 https://、http://、svn://、svn+ssh:// 或 file:// 地址',
  command_failed: 'SVN 命令执行失败',
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
  if (parsed.protocol === 'file:') return options.allowFile !== false && (parsed.hostname === '' || parsed.hostname === 'localhost');
  return HOST.test(parsed.hostname) && !parsed.username.startsWith('-');
}

/** The URL as an svn target: a trailing `@` pins the peg revision, so an `@` inside the path stays part of it. */
export function svnTarget(url: string): string {
  return `${url.replace(/\/+$/, '')}@`;
}

/** Runs `svn <args>` non-interactively without a shell; resolves with stdout, rejects with an SvnError. */
export function runSvn(args: readonly string[], options: SvnRunOptions = {}): Promise<string> {
  const full = ['--non-interactive', '--no-auth-cache'];
  if (options.configDir !== undefined) full.push('--config-dir', options.configDir);
  if (options.username !== undefined) full.push('--username', options.username);
  if (options.password !== undefined) full.push('--password-from-stdin');
  full.push(...args);
  return new Promise((resolve, reject) => {
    const child = execFile(
      'svn',
      full,
      { timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBuffer: MAX_BUFFER, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' }, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new SvnError('bad_output', `svn ${args[0] ?? ''}: output too large`));
        if (error.killed || error.signal) return reject(new SvnError('timeout', `svn ${args[0] ?? ''}: ${stderr}`));
        reject(new SvnError('command_failed', `svn ${args[0] ?? ''} (${String(error.code)}): ${stderr || error.message}`));
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.password !== undefined ? `${options.password}\n` : '');
  });
}
