import type { CliEnv } from './config.ts';
import type { ProgressStream } from './progress.ts';

/** What a command may touch of the process: its streams and environment (tests pass their own). */
export interface Io {
  stdout: ProgressStream;
  stderr: ProgressStream;
  env: CliEnv;
}

export interface Output {
  /** A line for people: stdout, or stderr under --json so stdout holds only the JSON. */
  info(line: string): void;
  /** The one JSON object of --json; nothing otherwise. */
  result(value: Record<string, unknown>): void;
}

export function createOutput(io: Io, json: boolean): Output {
  return {
    info(line) {
      (json ? io.stderr : io.stdout).write(`${line}\n`);
    },
    result(value) {
      if (json) io.stdout.write(`${JSON.stringify(value)}\n`);
    },
  };
}
