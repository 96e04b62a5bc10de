import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's per-request lines, quieter: one line per answered request at `debug` (LOG_LEVEL=debug shows them),
 * 5xx answers at `warn`, errors at `error`; no "incoming request" line. At `info` they buried the console, the
 * one-time admin password included. The route's pattern is logged, never the URL: query strings carry install
 * passwords and link signatures.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const fields = {
      method: request.method,
      route: request.routeOptions.url ?? null,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime),
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (reply.statusCode >= 500) reply.log.warn(fields, 'request completed');
    else reply.log.debug(fields, 'request completed');
  }
}
