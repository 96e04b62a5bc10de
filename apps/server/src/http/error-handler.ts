import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { Messages, ResultCode } from '@release/contract';
import { databaseFault } from '../db/faults.ts';
import { isDiskFull } from '../storage/faults.ts';
import { AppError } from './app-error.ts';

interface ZodIssueLike {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

function describeValidation(issues: ZodIssueLike[], context: string | undefined): string {
  const first = issues[0];
  const pathParts = first?.params?.issue?.path ?? first?.instancePath?.split('/').filter(Boolean) ?? [];
  const field = pathParts.map(String).join('.') || context || '参数';
  const reason = first?.params?.issue?.message ?? first?.message ?? '格式不正确';
  return `参数错误：${field} ${reason}`;
}

/**
 * A failure of the place rather than of the request: the database away (503, try again shortly) or a full disk, the
 * server's or the database's (507, an administrator must free space). Null for anything else.
 */
export function faultOf(error: unknown): AppError | null {
  if (isDiskFull(error)) return new AppError('insufficientStorage', Messages.storageFull, { cause: error });
  const fault = databaseFault(error);
  if (fault === 'full') return new AppError('insufficientStorage', Messages.storageFull, { cause: error });
  if (fault === 'unavailable') return new AppError('unavailable', Messages.databaseUnavailable, { cause: error });
  return null;
}

/** Maps every error to the envelope; 5xx internals are logged, never shown. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    // Before the rest: a service may have wrapped the database's or the disk's failure in a 500 of its own.
    const fault = error instanceof AppError && error.status < 500 ? null : faultOf(error);
    if (fault) {
      request.log.warn({ err: error }, fault.message);
      return reply.status(fault.status).send({ code: fault.code, msg: fault.message, data: null });
    }
    if (error instanceof AppError) {
      return reply.status(error.status).send({
        code: error.code,
        msg: error.message,
        data: error.data ?? (error.field === undefined ? null : { field: error.field }),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const msg = describeValidation(error.validation as ZodIssueLike[], error.validationContext);
      return reply.status(400).send({ code: ResultCode.badRequest, msg, data: null });
    }
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(400).send({ code: ResultCode.badRequest, msg: Messages.badJson, data: null });
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.status(413).send({ code: ResultCode.tooLarge, msg: '文件超过大小上限', data: null });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ code: ResultCode.tooLarge, msg: Messages.bodyTooLarge, data: null });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ code: status, msg: `请求无效：${error.message}`, data: null });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: ResultCode.internal, msg: Messages.internal, data: null });
  });
}
