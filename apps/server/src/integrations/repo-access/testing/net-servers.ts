import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

export interface LoopbackServer {
  port: number;
  close(): Promise<void>;
}

function listen(server: net.Server, sockets: Set<net.Socket>): Promise<LoopbackServer> {
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Accepts connections and never says a word: what a firewalled or wedged service looks like from outside. */
export function startSilentServer(): Promise<LoopbackServer> {
  const sockets = new Set<net.Socket>();
  return listen(
    net.createServer(() => undefined),
    sockets,
  );
}

/** Answers anything with a line of plain text and hangs up: not TLS, not git, not svn. */
export function startPlainTextServer(): Promise<LoopbackServer> {
  const sockets = new Set<net.Socket>();
  return listen(
    net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    }),
    sockets,
  );
}

/** A loopback port nothing listens on (taken, then given back). */
export async function closedPort(): Promise<number> {
  const server = await startSilentServer();
  await server.close();
  return server.port;
}

/**
 * Serves bare repositories under `root` over git's dumb HTTP protocol (run `git update-server-info` in them), with
 * HTTP basic auth when `credentials` are given: a 401 with `WWW-Authenticate` for anyone else.
 */
export function startDumbGitServer(
  root: string,
  credentials?: { user: string; password: string },
): Promise<LoopbackServer> {
  const sockets = new Set<net.Socket>();
  const expected = credentials
    ? `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`
    : null;
  const server = http.createServer((req, res) => {
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const file = path.join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return listen(server, sockets);
}

/** What a canned server says to one request. */
export interface CannedAnswer {
  status?: number;
  body: string;
  contentType?: string;
}

/**
 * Answers each request with `answer(path)` (the path with its query): another service saying something odd — a bare
 * `null`, a proxy's page, a field of the wrong type — that the loopback fakes, which speak the real shapes, never say.
 */
export function startCannedServer(answer: (path: string) => CannedAnswer): Promise<LoopbackServer> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { status = 200, body, contentType = 'application/json; charset=utf-8' } = answer(req.url ?? '/');
      res.writeHead(status, { 'content-type': contentType }).end(body);
    });
  });
  return listen(server, sockets);
}
