import { ResultCode } from '@release/contract';

/** Exit codes a CI job can branch on (docs/ci-pipelines.md lists them). */
export const ExitCode = {
  ok: 0,
  /** Unexpected failure of the CLI itself (a bug); the message carries the stack. */
  internal: 1,
  /** Wrong command line: unknown option, missing argument, unreadable file. */
  usage: 2,
  /** No token, or the server refused it (unknown, revoked, expired). */
  auth: 3,
  /** The app or version does not exist, or the token's user has no permit on it. */
  notFound: 4,
  /** The server refused the package (not a valid package, too large, published to another app). */
  refused: 5,
  /** Network failure, timeout or server error: worth retrying later. */
  failed: 6,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that ends the command with a message and a chosen exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCodeValue;

  constructor(exitCode: ExitCodeValue, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** The exit code for a server answer: by the envelope code first, then by the HTTP status. */
export function exitCodeForAnswer(status: number, code: number | null): ExitCodeValue {
  if (code === ResultCode.unauthorized || status === 401) return ExitCode.auth;
  if (code === ResultCode.noPermission || status === 403 || status === 404) return ExitCode.notFound;
  if (status === 400 || status === 409 || status === 413 || status === 422) return ExitCode.refused;
  return ExitCode.failed;
}
