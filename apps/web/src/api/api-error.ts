/** How a call failed; callers branch on `kind`, never on the message text. */
export type ApiErrorKind = 'business' | 'expired' | 'forbidden' | 'not-modified' | 'network' | 'timeout' | 'canceled';

export interface ApiEnvelope<T> {
  code: number;
  msg: string;
  data: T;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** The envelope code, when the server answered. */
  readonly code: number | null;
  /** The whole response body, when the server answered (SPEC §8: 304 rejects with it). */
  readonly body: ApiEnvelope<unknown> | null;

  constructor(
    kind: ApiErrorKind,
    message: string,
    code: number | null = null,
    body: ApiEnvelope<unknown> | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.code = code;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * What a silent call's caller shows for its failure: the server's (or the network's) message, `fallback` when there is
 * none; null when the client has already dealt with it (expired session, lost permission, canceled).
 */
export function failureMessage(error: unknown, fallback: string): string | null {
  if (
    error instanceof ApiError &&
    (error.kind === 'expired' || error.kind === 'forbidden' || error.kind === 'canceled')
  )
    return null;
  return error instanceof Error && error.message ? error.message : fallback;
}

export function isEnvelope(value: unknown): value is ApiEnvelope<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.code === 'number' && (typeof record.msg === 'string' || record.msg === undefined);
}
