import type { FastifyInstance } from 'fastify';

/**
 * `Expect: 100-continue` (curl sends it for any body over 1 MiB) is answered when the route first reads the body,
 * not as soon as the headers arrive. Node answers 100 at once when no one listens for `checkContinue`; a route that
 * then refuses without reading (413 for a declared size over MAX_PACKAGE_MB, 401, 403) closed the connection while
 * the client was already sending, and curl printed "Send failure: Broken pipe" instead of our answer. Now a refusal
 * reaches the client before any body is sent, and a route that reads gets its body as before.
 */
export function registerExpectContinue(app: FastifyInstance): void {
  app.server.on('checkContinue', (request, response) => {
    const read = request.read;
    request.read = function readAfterContinue(this: typeof request, size?: number) {
      request.read = read;
      if (!response.headersSent) response.writeContinue();
      return read.call(this, size);
    };
    app.server.emit('request', request, response);
  });
}
