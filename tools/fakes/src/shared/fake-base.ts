import type { FakeClock } from './clock.ts';
import { controlRoute, requireNumber, requireString } from './control.ts';
import {
  FakeHttpServer,
  type ErrorInjection,
  type FakeHttpServerOptions,
  type HeldAnswer,
  type RecordedRequest,
  type RouteDef,
} from './http-server.ts';

/** What every fake offers beside its own API: its address, clock, request log, error injection, held answers, reset and close. */
export interface FakeBase {
  /** Base URL (no trailing slash). */
  readonly url: string;
  readonly clock: FakeClock;
  /** Every request to the faked API (control calls excluded), oldest first. */
  readonly requests: RecordedRequest[];
  injectError(injection: ErrorInjection): void;
  clearInjectedErrors(): void;
  /** Holds the answer to the next request of a route (e.g. `im.image.create`) until the test releases it. */
  hold(route: string): HeldAnswer;
  advance(ms: number): Promise<void>;
  /** Forgets the request log, injected errors and holds (sending what was held), and what the fake's own reset forgets. */
  reset(): void;
  close(): Promise<void>;
}

export interface FakeHost {
  /** The FakeBase members of the fake being built; pass to `withFakeBase`. */
  readonly base: FakeBase;
  /** Starts the fake's server (its routes may use the finished fake); `url` answers after this. */
  listen(options: Omit<FakeHttpServerOptions, 'clock'>, at: { port?: number; host?: string }): Promise<void>;
}

/**
 * The server side every fake shares. The server is made in `listen`, after the fake object exists, since control
 * routes call the fake. `resetOwn` runs first on `reset` (the fake's state, limiter, timers as it needs).
 */
export function fakeHost(clock: FakeClock, resetOwn: () => void): FakeHost {
  let server: FakeHttpServer | undefined;
  let url = '';
  const running = (): FakeHttpServer => {
    if (!server) throw new Error('the fake is not listening yet');
    return server;
  };
  const base: FakeBase = {
    get url() {
      return url;
    },
    clock,
    get requests() {
      return running().requests;
    },
    injectError: (injection) => running().injectError(injection),
    clearInjectedErrors: () => running().clearInjectedErrors(),
    hold: (route) => running().hold(route),
    advance: (ms) => clock.advance(ms),
    reset() {
      resetOwn();
      running().clearRequests();
      running().clearInjectedErrors();
      running().releaseHolds();
    },
    async close() {
      clock.clearTimers();
      await running().close();
    },
  };
  return {
    base,
    async listen(options, at) {
      server = new FakeHttpServer({ clock, ...options });
      url = await server.listen(at.port ?? 0, at.host ?? '127.0.0.1');
    },
  };
}

/** The fake: its own members plus the base's (getters stay getters, so `url` and `requests` stay live). */
export function withFakeBase<T extends FakeBase>(base: FakeBase, own: Omit<T, keyof FakeBase>): T {
  return Object.defineProperties(own, Object.getOwnPropertyDescriptors(base)) as T;
}

/** For a fake's add… methods: keeps a built seed in its map under its own key and returns it. */
export function storeBy<T, K extends keyof T>(map: Map<T[K], T>, key: K, item: T): T {
  map.set(item[key], item);
  return item;
}

/** The `/__fake/...` routes for the base members: request log, reset, clock and error injection. */
export function baseControlRoutes(fake: FakeBase): RouteDef[] {
  return [
    controlRoute('GET', '/requests', () => fake.requests),
    controlRoute('POST', '/reset', () => fake.reset()),
    controlRoute('POST', '/clock/advance', async (input) => {
      await fake.advance(requireNumber(input, 'ms'));
      return { now: fake.clock.now() };
    }),
    controlRoute('POST', '/errors', (input) => {
      requireString(input, 'route');
      requireNumber(input, 'status');
      fake.injectError(input as unknown as ErrorInjection);
    }),
    controlRoute('DELETE', '/errors', () => fake.clearInjectedErrors()),
  ];
}
