import { FakeClock } from '../shared/clock.ts';
import { fakeHost, storeBy, withFakeBase, type FakeBase } from '../shared/fake-base.ts';
import { SlidingWindowLimiter, type RateLimit } from '../shared/rate-limiter.ts';
import { wecomControlRoutes } from './routes/control.routes.ts';
import { ROBOT_RATE_LIMIT, robotRoutes } from './routes/robot.routes.ts';
import { mintCode, ssoRoutes } from './routes/sso.routes.ts';
import { issueToken, tokenRoutes } from './routes/token.routes.ts';
import type { WecomContext } from './wecom-context.ts';
import {
  buildCorp,
  buildMember,
  buildRobot,
  WecomState,
  type RobotMessage,
  type WecomCorpSeed,
  type WecomMember,
  type WecomMemberSeed,
  type WecomRobot,
  type WecomRobotSeed,
} from './wecom-state.ts';

export interface WecomFakeOptions {
  /** Default 0 (a free port). */
  port?: number;
  host?: string;
  /** Default: wall-clock time that `advance` can move forward. Tests pass `new FakeClock({ frozen: true })`. */
  clock?: FakeClock;
  /** The corp and its one self-built app (random ww… corp id, agent id and secret unless given). */
  corp?: WecomCorpSeed;
  members?: WecomMemberSeed[];
  robots?: WecomRobotSeed[];
  /** The per-robot limit (default 20 per minute, then blocked 60 s); null switches it off. */
  robotRateLimit?: RateLimit | null;
}

/** The default corp's app in the shape the server's WECOM_* settings take. */
export interface WecomAppCredentials {
  corpId: string;
  agentId: string;
  secret: string;
}

export interface WecomFake extends FakeBase {
  /** Base URL for the qyapi and login hosts alike (no trailing slash). */
  readonly url: string;
  readonly corp: WecomAppCredentials;
  readonly state: WecomState;
  /** Accepted robot messages, oldest first. */
  readonly robotMessages: RobotMessage[];

  addMember(seed: WecomMemberSeed): WecomMember;
  addRobot(seed?: WecomRobotSeed): WecomRobot;
  /** The webhook address of a robot, as WeCom shows it (`…/cgi-bin/webhook/send?key=`). */
  robotUrl(key: string): string;
  /** Who signs in at the next SSO page visit; queued, one per visit. */
  setNextLogin(userId: string): void;
  /** A login code for the default app, as the SSO page would hand the callback. */
  mintCode(userId: string): string;
  issueToken(): string;
  /** Makes an access token (or a login code) expire now; false when unknown. */
  expireToken(token: string): boolean;
  revokeToken(token: string): boolean;
  setRobotRateLimit(limit: RateLimit | null): void;
  /** Forgets tokens, codes, media, messages, requests, injected errors and rate windows; seeds stay. */
  reset(): void;
}

export async function startWecomFake(options: WecomFakeOptions = {}): Promise<WecomFake> {
  const clock = options.clock ?? new FakeClock();
  const state = new WecomState();
  const corp = buildCorp(options.corp);
  state.corps.set(corp.corpId, corp);
  const agent = corp.agents[0];
  if (!agent) throw new Error('a WeCom corp needs an app');
  let robotLimit = options.robotRateLimit === undefined ? ROBOT_RATE_LIMIT : options.robotRateLimit;
  const ctx: WecomContext = { state, clock, limiter: new SlidingWindowLimiter(clock), baseUrl: () => host.base.url };
  const host = fakeHost(clock, () => {
    state.resetRuntime();
    ctx.limiter.reset();
    clock.clearTimers();
  });

  const fake = withFakeBase<WecomFake>(host.base, {
    corp: { corpId: corp.corpId, agentId: agent.agentId, secret: agent.secret },
    state,
    get robotMessages() {
      return state.robotMessages;
    },
    addMember: (seed) => storeBy(state.members, 'userId', buildMember(seed)),
    addRobot: (seed) => storeBy(state.robots, 'key', buildRobot(seed)),
    robotUrl: (key) => `${host.base.url}/cgi-bin/webhook/send?key=${encodeURIComponent(key)}`,
    setNextLogin(userId) {
      if (!state.members.has(userId)) throw new Error(`unknown member ${userId}`);
      state.nextLogins.push(userId);
    },
    mintCode(userId) {
      if (!state.members.has(userId)) throw new Error(`unknown member ${userId}`);
      return mintCode(ctx, { corpId: corp.corpId, agentId: agent.agentId, userId }).code;
    },
    issueToken: () => issueToken(ctx, corp.corpId, agent.agentId).token.token,
    expireToken(token) {
      const target = state.tokens.find((t) => t.token === token) ?? state.codes.get(token);
      if (target) target.expiresAt = clock.now();
      return Boolean(target);
    },
    revokeToken(token) {
      const target = state.tokens.find((t) => t.token === token);
      if (target) target.revoked = true;
      return Boolean(target);
    },
    setRobotRateLimit(limit) {
      robotLimit = limit;
    },
  });

  for (const seed of options.members ?? []) fake.addMember(seed);
  for (const seed of options.robots ?? []) fake.addRobot(seed);

  await host.listen(
    {
      routes: [
        ...wecomControlRoutes(fake),
        ...tokenRoutes(ctx),
        ...ssoRoutes(ctx),
        ...robotRoutes(ctx, () => robotLimit),
      ],
      notFound: () => ({
        status: 404,
        text: '<html><body><h1>404 Not Found</h1></body></html>',
        contentType: 'text/html',
      }),
      methodNotAllowed: () => ({ status: 200, body: { errcode: 43001, errmsg: 'require GET method' } }),
      injectedBody: { errcode: -1, errmsg: 'system busy' },
    },
    options,
  );
  return fake;
}
