import { LarkTaskMessages } from '@release/contract';
import { LarkApiError, RATE_LIMIT_CODES } from './lark-client.ts';

const UNAVAILABLE = new Set([1470500, 1255001, 1255002, 1255003, 1255004, 1255005, 1255040, 2200, 5000]);
const BAD_CREDENTIALS = new Set([99991663, 99991664, 99991665, 10012, 10013, 10014, 10015]);

/** A Lark failure of the task list or Bitable, told in Chinese with what to grant when it is a permission. */
export function larkTaskErrorMessage(error: unknown): string {
  if (!(error instanceof LarkApiError)) return LarkTaskMessages.unreachable;
  const known = LarkTaskMessages.larkCodes[error.code];
  if (known) return known;
  if (error.httpStatus === 429 || RATE_LIMIT_CODES.has(error.code)) return LarkTaskMessages.rateLimited;
  if (UNAVAILABLE.has(error.code) || error.httpStatus >= 500) return LarkTaskMessages.unavailable;
  if (BAD_CREDENTIALS.has(error.code)) return LarkTaskMessages.badCredentials;
  if (error.code === 1470400 || (error.code >= 1254000 && error.code < 1255000))
    return LarkTaskMessages.badRequest(`${error.message}（${error.code}）`);
  return LarkTaskMessages.larkFailed(`${error.message}（${error.code}）`);
}

/** Whether trying again later may work (rate limits, Lark's own failures, the network); permissions and bad input never do. */
export function isRetryableLarkError(error: unknown): boolean {
  if (!(error instanceof LarkApiError)) return true;
  return (
    error.httpStatus === 429 ||
    RATE_LIMIT_CODES.has(error.code) ||
    UNAVAILABLE.has(error.code) ||
    error.httpStatus >= 500 ||
    error.httpStatus === 0 ||
    error.code === -1
  );
}

/**
 * Whether a sync failure is Lark's (a refusal, or Lark not reachable: a network error or a timeout) rather than one
 * record's own trouble here (say its attachment is missing from the store), which only that record should suffer.
 */
export function isLarkFailure(error: unknown): boolean {
  if (error instanceof LarkApiError) return true;
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'TimeoutError' ||
    error.name === 'AbortError' ||
    (error instanceof TypeError && (error.message === 'fetch failed' || error.message === 'terminated'))
  );
}
