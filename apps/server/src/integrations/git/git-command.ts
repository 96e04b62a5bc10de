import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { REPO_UNREACHABLE, wholeSeconds, type RemoteLimits } from '../repo-access/repo-access-error.ts';
import { killGroup, runChild, spawnGroup } from '../repo-access/run-child.ts';
import { redactSecrets } from './remote-url.ts';

export type GitErrorReason =
  | 'invalid_remote'
  | 'not_a_mirror'
  | 'remote_not_found'
  | 'remote_refused'
  | 'remote_unreachable'
  | 'command_failed'
  | 'timeout'
  | 'bad_output';

const messages: Record<GitErrorReason, string> = {
  invalid_remote: '仓库地址不合法：仅支持 https://、http://、ssh://、git@主机:路径 或 file:// 地址',
  not_a_mirror: '本地镜像目录已存在但不是 Git 仓库',
  remote_not_found: '仓库不存在或无权访问：请检查仓库地址（私有仓库的 https 地址需带上有读取权限的访问令牌）',
  remote_refused: '仓库拒绝访问：请确认地址中的账号或访问令牌有读取权限（ssh 地址需要为服务器配置部署密钥）',
  remote_unreachable: REPO_UNREACHABLE,
  command_failed: 'Git 命令执行失败',
  timeout: 'Git 命令执行超时',
  bad_output: '无法解析 Git 的输出',
};

/** What a failed clone or fetch says about the remote (git's messages are English whatever the locale: LC_ALL=C). */
const remoteFailures: Array<[GitErrorReason, RegExp]> = [
  [
    'remote_refused',
    /authentication failed|could not read (username|password)|permission denied|access denied|terminal prompts disabled|returned error: 40[13]|host key verification failed/i,
  ],
  [
    'remote_unreachable',
    /could not resolve host|failed to connect|connection refused|connection timed out|network is unreachable|could not connect|no route to host|operation too slow|timed out|ssl|tls|gnutls|empty reply|connection reset|connection closed|kex_exchange_identification|unable to access/i,
  ],
  [
    'remote_not_found',
    /does not appear to be a git repository|repository .*not found|not found|no such file or directory|returned error: 404/i,
  ],
];

/** The reason of a git command that exited non-zero, from its stderr. */
export function failureReason(stderr: string): GitErrorReason {
  return remoteFailures.find(([, pattern]) => pattern.test(stderr))?.[0] ?? 'command_failed';
}

/** A git failure: `reason` is stable for code, `message` is Chinese for people, `detail` is git's (redacted) stderr. */
export class GitError extends Error {
  readonly reason: GitErrorReason;
  readonly detail: string;

  /** `message` replaces the reason's own (a refused remote says which forms this server accepts). */
  constructor(reason: GitErrorReason, detail = '', message = messages[reason]) {
    super(message);
    this.name = 'GitError';
    this.reason = reason;
    this.detail = redactSecrets(detail).slice(-4000);
  }
}

export interface GitRunOptions {
  /** The bare repository to run in; passed as `--git-dir` so git never discovers an enclosing repository. */
  gitDir?: string;
  timeoutMs: number;
  /** Allow the file:// transport (local remotes). */
  allowFile?: boolean;
  /** Written to git's stdin. */
  input?: string;
  /** A run that talks to a remote: its connect and idle limits, and the checked address to connect to. */
  remote?: RemoteLimits;
}

/**
 * Transports are whitelisted per command (`ext::`/`fd::` and plain http/git are refused by git itself), and
 * auto-gc runs in the foreground so no detached git outlives the call.
 */
function baseArgs(options: GitRunOptions): string[] {
  const args = [
    '-c',
    'protocol.allow=never',
    '-c',
    'protocol.https.allow=always',
    '-c',
    'protocol.http.allow=always',
    '-c',
    'protocol.ssh.allow=always',
    '-c',
    `protocol.file.allow=${options.allowFile ? 'always' : 'never'}`,
    '-c',
    'gc.autoDetach=false',
    '-c',
    'core.quotePath=false',
  ];
  const remote = options.remote;
  if (remote) {
    // A transfer below 1 KB/s for the idle limit is given up; a redirect could lead past the host check.
    args.push(
      '-c',
      'http.lowSpeedLimit=1000',
      '-c',
      `http.lowSpeedTime=${wholeSeconds(remote.timeouts.idleMs)}`,
      '-c',
      'http.followRedirects=false',
    );
    // curl connects to the address the host check looked at (TLS still checks the certificate of the name).
    if (remote.pin)
      args.push(
        '-c',
        `http.curloptResolve=${remote.pin.host}:${remote.pin.port}:${remote.pin.address.includes(':') ? `[${remote.pin.address}]` : remote.pin.address}`,
      );
  }
  if (options.gitDir !== undefined) args.push(`--git-dir=${options.gitDir}`);
  return args;
}

/**
 * The inherited environment (PATH, HOME for ssh keys) plus switches that make git and ssh never prompt.
 * GIT_FLUSH=0: into a pipe git otherwise flushes after every commit it prints (one write, and one read here, per
 * commit: a 100,000-commit `git log` took 0.8-1.1 s instead of 0.6 s); buffered, it writes 4-8 KiB at a time.
 */
function gitEnv(remote?: RemoteLimits): NodeJS.ProcessEnv {
  const ssh = ['ssh', '-o BatchMode=yes', '-o StrictHostKeyChecking=accept-new'];
  if (remote) {
    const idle = wholeSeconds(remote.timeouts.idleMs);
    ssh.push(
      `-o ConnectTimeout=${wholeSeconds(remote.timeouts.connectMs)}`,
      `-o ServerAliveInterval=${Math.max(1, Math.ceil(idle / 3))}`,
      '-o ServerAliveCountMax=3',
    );
    // The checked address, with the host key still looked up under the name (host and address are plain ASCII here).
    if (remote.pin) ssh.push(`-o HostName=${remote.pin.address}`, `-o HostKeyAlias=${remote.pin.host}`);
  }
  return {
    ...process.env,
    GIT_FLUSH: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_SSH_COMMAND: ssh.join(' '),
    LC_ALL: 'C',
  };
}

const MAX_BUFFER = 256 * 1024 * 1024;

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * The git processes this server ran, by subcommand, and the characters read from them: what tests and benches count
 * to show work done (a page load that runs no git, a publish that reads a few tags of many), never timing.
 */
export const gitTally = {
  runs: {} as Record<string, number>,
  outputChars: 0,
  /** Runs of `command` so far (all commands when omitted). */
  count(command?: string): number {
    return command ? (this.runs[command] ?? 0) : Object.values(this.runs).reduce((a, b) => a + b, 0);
  },
};

/**
 * Runs git without a shell and resolves with its output. Exit codes listed in `okExitCodes` (default [0])
 * resolve; any other exit, a timeout or a spawn failure rejects with a GitError.
 */
export async function runGit(
  args: readonly string[],
  options: GitRunOptions,
  okExitCodes: readonly number[] = [0],
): Promise<GitResult> {
  const run = await runChild('git', [...baseArgs(options), ...args], {
    env: gitEnv(options.remote),
    input: options.input,
    timeoutMs: options.timeoutMs,
    maxBuffer: MAX_BUFFER,
  });
  const { stdout, stderr } = run;
  const command = args[0] ?? '';
  gitTally.runs[command] = (gitTally.runs[command] ?? 0) + 1;
  gitTally.outputChars += stdout.length;
  if (run.code === 0) return { stdout, stderr, exitCode: 0 };
  if (run.overflow) throw new GitError('bad_output', `git ${args[0] ?? ''}: output too large`);
  if (run.timedOut) throw new GitError('timeout', `git ${args[0] ?? ''}: ${stderr}`);
  if (run.code !== null && okExitCodes.includes(run.code)) return { stdout, stderr, exitCode: run.code };
  throw new GitError(
    failureReason(stderr),
    `git ${args[0] ?? ''} (${String(run.code ?? run.spawnError)}): ${stderr || run.spawnError || 'killed'}`,
  );
}

export interface StreamGitOptions extends GitRunOptions {
  /** Written to git's stdin as it comes (instead of `input`), with backpressure; stdin ends when it ends. */
  feed?: AsyncIterable<string>;
}

/** Writes the feed to git's stdin, waiting whenever the pipe is full; stops writing if git goes away. */
async function pump(stdin: Writable, feed: AsyncIterable<string>): Promise<void> {
  try {
    for await (const text of feed) {
      if (stdin.destroyed || stdin.writableEnded) continue;
      if (stdin.write(text)) continue;
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off('drain', done);
          stdin.off('close', done);
          resolve();
        };
        stdin.on('drain', done);
        stdin.on('close', done);
      });
    }
  } finally {
    // A feed that failed still ends stdin, so git finishes what it was given rather than waiting for its timeout.
    if (!stdin.destroyed) stdin.end();
  }
}

/**
 * Streams git's stdout as UTF-8 text, chunk by chunk, with backpressure (the child is paused while the consumer
 * awaits). Leaving the loop early stops git; a non-zero exit after a complete read rejects with a GitError.
 */
export async function* streamGit(
  args: readonly string[],
  options: StreamGitOptions,
): AsyncGenerator<string, void, undefined> {
  const child = spawnGroup('git', [...baseArgs(options), ...args], gitEnv(options.remote));
  // Written from event handlers, hence an object rather than `let`s that the compiler would narrow.
  const state = { stderr: '', timedOut: false };
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    state.stderr = (state.stderr + text).slice(-8000);
  });
  const closed = new Promise<number | null>((resolve) => {
    child.on('error', (error) => {
      state.stderr += error.message;
      resolve(null);
    });
    child.on('close', (code) => resolve(code));
  });
  const timer = setTimeout(() => {
    state.timedOut = true;
    killGroup(child);
  }, options.timeoutMs);
  child.stdin.on('error', () => undefined);
  if (options.feed) pump(child.stdin, options.feed).catch(() => undefined);
  else child.stdin.end(options.input ?? '');
  const decoder = new StringDecoder('utf8');
  let complete = false;
  let code: number | null = null;
  try {
    for await (const chunk of child.stdout) {
      const text = decoder.write(chunk as Buffer);
      if (text) yield text;
    }
    const rest = decoder.end();
    if (rest) yield rest;
    complete = true;
  } finally {
    if (!complete) killGroup(child);
    code = await closed;
    clearTimeout(timer);
  }
  // Reached only when every line was read (an error or an early return() by the reader ends in the finally above).
  if (state.timedOut) throw new GitError('timeout', `git ${args[0] ?? ''}: ${state.stderr}`);
  if (code !== 0)
    throw new GitError(failureReason(state.stderr), `git ${args[0] ?? ''} (${String(code)}): ${state.stderr}`);
}
