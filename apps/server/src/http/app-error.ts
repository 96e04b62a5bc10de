import { Messages, ResultCode } from '@release/contract';

type ErrorKind =
  | 'badRequest'
  | 'unauthorized'
  | 'noPermission'
  | 'notFound'
  | 'conflict'
  | 'tooLarge'
  | 'tooManyRequests'
  | 'internal'
  | 'unavailable'
  | 'insufficientStorage';

const kinds: Record<ErrorKind, { status: number; code: number }> = {
  badRequest: { status: 400, code: ResultCode.badRequest },
  unauthorized: { status: 401, code: ResultCode.unauthorized },
  noPermission: { status: 403, code: ResultCode.noPermission },
  notFound: { status: 404, code: ResultCode.notFound },
  conflict: { status: 409, code: ResultCode.conflict },
  tooLarge: { status: 413, code: ResultCode.tooLarge },
  tooManyRequests: { status: 429, code: ResultCode.tooManyRequests },
  internal: { status: 500, code: ResultCode.internal },
  unavailable: { status: 503, code: ResultCode.serviceUnavailable },
  insufficientStorage: { status: 507, code: ResultCode.insufficientStorage },
};

/** The one error type of the domain: a stable envelope code, an HTTP status and a Chinese message. */
export class AppError extends Error {
  readonly status: number;
  readonly code: number;
  /** The form field the message is about, answered as `data.field` so a form can show it under that field. */
  readonly field: string | undefined;
  /** What a client needs to act on the refusal (answered as `data`), e.g. the ids of a bundle id mismatch. */
  readonly data: Record<string, unknown> | undefined;

  constructor(
    kind: ErrorKind,
    message: string,
    options?: { cause?: unknown; field?: string; data?: Record<string, unknown> },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.status = kinds[kind].status;
    this.code = kinds[kind].code;
    this.field = options?.field;
    this.data = options?.data;
  }

  static badRequest(message: string, field?: string) {
    return new AppError('badRequest', message, field === undefined ? undefined : { field });
  }
  static unauthorized(message: string = Messages.tokenExpired) {
    return new AppError('unauthorized', message);
  }
  static noPermission(message: string = Messages.noPermission) {
    return new AppError('noPermission', message);
  }
  static notFound(message: string) {
    return new AppError('notFound', message);
  }
  static conflict(message: string, data?: Record<string, unknown>) {
    return new AppError('conflict', message, data === undefined ? undefined : { data });
  }
  static tooManyRequests(message: string) {
    return new AppError('tooManyRequests', message);
  }
}
