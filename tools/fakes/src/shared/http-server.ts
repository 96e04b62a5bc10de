import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeClock } from './clock.ts';
import { boundaryOf, parseMultipart, type MultipartBody } from './multipart.ts';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  params: Record<string, string>;
  rawBody: Buffer;
  /** Parsed JSON or form body; undefined when empty or unparsable (see `bodyError`). */
  body: unknown;
  bodyError?: string;
  multipart?: MultipartBody;
  route: string;
}

export interface FakeResponse {
  status: number;
  /** Serialized as JSON unless `text` is given. */
  body?: unknown;
  text?: string;
  /** Binary payload (downloads); sent as is with `contentType`. */
  raw?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Handler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export interface RouteDef {
  /** Stable name used for error injection, rate limits and the request log, e.g. `im.message.create`. */
  name: string;
  method: string;
  path: string;
  handler: Handler;
}

export interface RecordedRequest {
  id: number;
  at: number;
  method: string;
  path: string;
  route: string | null;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  status?: number;
}

export interface ErrorInjection {
  /** A route name (`im.message.create`) or a path (`/open-apis/im/v1/messages`). */
  route: string;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail (default 1). */
  times?: number;
}

/** A held answer (see `FakeHttpServer.hold`). */
export interface HeldAnswer {
  /** Settles once a matching request has been handled and its answer is being held back. */
  readonly reached: Promise<void>;
  /** Sends the held answer (or, when none came yet, lets the next one through at once). */
  release(): void;
}

interface Hold {
  route: string;
  taken: boolean;
  reached: () => void;
  released: Promise<void>;
  release: () => void;
}

export interface FakeHttpServerOptions {
  clock: FakeClock;
  routes: RouteDef[];
  notFound: (req: FakeRequest) => FakeResponse;
  methodNotAllowed: (req: FakeRequest) => FakeResponse;
  /** Headers added to every answer (e.g. Lark's X-Tt-Logid). */
  decorate?: (res: FakeResponse) => void;
  /** Body of an injected error that names none (default: Lark's `{code:5000}`). */
  injectedBody?: unknown;
}

export const CONTROL_PREFIX = '/__fake/';
const MAX_BODY_BYTES = 64 * 1024 * 1024;

interface CompiledRoute extends RouteDef {
  pattern: RegExp;
  keys: string[];
}

export function json(status: number, body: unknown, headers?: Record<string, string>): FakeResponse {
  return { status, body, headers };
}

export function redirect(location: string): FakeResponse {
  return { status: 302, headers: { location }, text: '' };
}

export function html(status: number, text: string): FakeResponse {
  return { status, text, contentType: 'text/html; charset=utf-8' };
}

/** One loopback HTTP server with a tiny router, a request log and per-route error injection. */
export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  private injections: Array<Required<Pick<ErrorInjection, 'times'>> & ErrorInjection> = [];
  private holds: Hold[] = [];
  private readonly routes: CompiledRoute[];
  private readonly server: http.Server;
  private nextId = 1;

  constructor(private readonly options: FakeHttpServerOptions) {
    this.routes = options.routes.map(compile);
    this.server = http.createServer((req, res) => void this.serve(req, res));
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    return `http://${host}:${address.port}`;
  }

  async close(): Promise<void> {
    this.releaseHolds();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  injectError(injection: ErrorInjection): void {
    this.injections.push({ ...injection, times: injection.times ?? 1 });
  }

  clearInjectedErrors(): void {
    this.injections = [];
  }

  /**
   * Holds the answer to the next request of a route (name or path, as for error injection) until `release`: the
   * fake has done the work (issued the image key, stored the message) but the caller has not heard back yet, so a
   * test can run something else in between, deterministically.
   */
  hold(route: string): HeldAnswer {
    let reached!: () => void;
    let release!: () => void;
    const isReached = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ route, taken: false, reached, released, release });
    return { reached: isReached, release };
  }

  /** Sends every held answer and forgets the holds not used yet. */
  releaseHolds(): void {
    for (const hold of this.holds) hold.release();
    this.holds = [];
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    const method = (req.method ?? 'GET').toUpperCase();
    const rawBody = await readBody(req).catch(() => null);
    const fakeReq: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      params: {},
      rawBody: rawBody ?? Buffer.alloc(0),
      body: undefined,
      route: '',
    };
    parseBody(fakeReq);
    const record: RecordedRequest = {
      id: this.nextId++,
      at: this.options.clock.now(),
      method,
      path: url.pathname,
      route: null,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: fakeReq.multipart ?? fakeReq.body,
    };
    // Control calls (/__fake/…) are not part of the faked API, so they stay out of the log.
    if (!url.pathname.startsWith(CONTROL_PREFIX)) this.requests.push(record);
    let answer: FakeResponse;
    try {
      answer =
        rawBody === null
          ? { status: 413, body: { code: 9499, msg: 'request entity too large' } }
          : await this.dispatch(fakeReq, record);
    } catch (error) {
      answer = {
        status: 500,
        body: { code: 5000, msg: `fake internal error: ${error instanceof Error ? error.message : String(error)}` },
      };
    }
    record.status = answer.status;
    const hold = this.holds.find((h) => !h.taken && (h.route === record.route || h.route === url.pathname));
    if (hold) {
      hold.taken = true;
      hold.reached();
      await hold.released;
      this.holds = this.holds.filter((h) => h !== hold);
    }
    this.options.decorate?.(answer);
    const headers: Record<string, string> = { ...answer.headers };
    let payload: string | Buffer = '';
    if (answer.raw !== undefined) {
      payload = answer.raw;
      headers['content-type'] ??= answer.contentType ?? 'application/octet-stream';
    } else if (answer.text !== undefined) {
      payload = answer.text;
      headers['content-type'] ??= answer.contentType ?? 'text/plain; charset=utf-8';
    } else if (answer.body !== undefined) {
      payload = JSON.stringify(answer.body);
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
    res.writeHead(answer.status, headers);
    res.end(payload);
  }

  private async dispatch(req: FakeRequest, record: RecordedRequest): Promise<FakeResponse> {
    let pathMatched = false;
    for (const route of this.routes) {
      const match = route.pattern.exec(req.path);
      if (!match) continue;
      pathMatched = true;
      if (route.method !== req.method) continue;
      for (const [i, key] of route.keys.entries()) req.params[key] = decodeURIComponent(match[i + 1] ?? '');
      req.route = route.name;
      record.route = route.name;
      const injected = this.takeInjection(route.name, req.path);
      if (injected)
        return {
          status: injected.status,
          body: injected.body ?? this.options.injectedBody ?? { code: 5000, msg: 'injected error' },
          headers: injected.headers,
        };
      return route.handler(req);
    }
    return pathMatched ? this.options.methodNotAllowed(req) : this.options.notFound(req);
  }

  private takeInjection(route: string, path: string): ErrorInjection | null {
    const found = this.injections.find((i) => i.route === route || i.route === path);
    if (!found) return null;
    found.times -= 1;
    if (found.times <= 0) this.injections = this.injections.filter((i) => i !== found);
    return found;
  }
}

function compile(route: RouteDef): CompiledRoute {
  const keys: string[] = [];
  const source = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_m, key: string) => {
    keys.push(key);
    return '([^/]+)';
  });
  return { ...route, pattern: new RegExp(`^${source}$`), keys };
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function parseBody(req: FakeRequest): void {
  if (req.rawBody.length === 0) return;
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const text = () => req.rawBody.toString('utf8');
  if (type.includes('multipart/form-data')) {
    const boundary = boundaryOf(req.headers['content-type']);
    if (boundary) req.multipart = parseMultipart(req.rawBody, boundary);
    else req.bodyError = 'multipart body without boundary';
  } else if (type.includes('application/x-www-form-urlencoded')) {
    req.body = Object.fromEntries(new URLSearchParams(text()));
  } else if (type.includes('json') || type === '' || text().trimStart().startsWith('{')) {
    try {
      req.body = JSON.parse(text());
    } catch (error) {
      req.bodyError = error instanceof Error ? error.message : 'bad JSON';
    }
  }
}
