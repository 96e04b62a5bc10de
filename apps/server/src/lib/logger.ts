/**
 * The one logger shape server code takes: pino's (Fastify's `app.log`), narrowed to the levels we call,
 * so a module's dependencies name `Logger` and a test can pass `silentLogger` or a recording one.
 */
export interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
}

export const silentLogger: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined };
