import { spawn } from 'node:child_process';

export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A real program in a child process (curl, bash, node), asynchronous since the server answering it lives in this
 * process. `env` replaces the environment but for PATH (and HOME when not given).
 */
export function runProcess(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** `curl -sS <args>`: answers the exit code and the body printed. */
export function curl(args: string[]): Promise<ProcessRun> {
  return runProcess('curl', ['-sS', ...args]);
}
