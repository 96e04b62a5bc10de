import { FakeClock } from '../shared/clock.ts';
import { fakeHost, storeBy, withFakeBase, type FakeBase } from '../shared/fake-base.ts';
import { randomHex } from '../shared/ids.ts';
import { SlidingWindowLimiter, type RateLimit } from '../shared/rate-limiter.ts';
import { EventPusher, type PushEventInput, type UrlVerificationResult } from './event-pusher.ts';
import { signJsapi } from './lark-crypto.ts';
import type { LarkContext } from './lark-context.ts';
import {
  buildBot,
  buildChat,
  buildDriveFile,
  buildWikiNode,
  buildWikiSpace,
  driveTypeOf,
  type BotSeed,
  type DriveFileSeed,
  type LarkChatSeed,
  type WikiNodeSeed,
  type WikiSpaceSeed,
} from './lark-seed.ts';
import { BitableStore } from './bitable-state.ts';
import { larkWorkControlRoutes, larkWorkHooks, type LarkWorkHooks } from './lark-work-hooks.ts';
import {
  buildApp,
  buildUser,
  LarkState,
  type BotHook,
  type DriveFile,
  type EventDelivery,
  type LarkApp,
  type LarkAppSeed,
  type LarkChat,
  type LarkUser,
  type LarkUserSeed,
  type LoginChoice,
  type WikiNode,
  type WikiSpace,
} from './lark-state.ts';
import { botHookRoutes } from './routes/bot-hooks.routes.ts';
import { larkControlRoutes } from './routes/control.routes.ts';
import { driveEventRoutes, emitDriveEvent, type EmitDriveEventInput } from './routes/drive-events.routes.ts';
import { driveMediaRoutes } from './routes/drive-media.routes.ts';
import { mediaMultipartRoutes } from './routes/drive-media-multipart.routes.ts';
import { imRoutes } from './routes/im.routes.ts';
import { oauthAuthorizeRoutes } from './routes/oauth-authorize.routes.ts';
import { oauthTokenRoutes } from './routes/oauth-token.routes.ts';
import { oauthUserRoutes } from './routes/oauth-user.routes.ts';
import { DEFAULT_LARK_LIMITS, withRateLimits } from './routes/rate-limit.ts';
import { issueTenantToken, tokenRoutes } from './routes/tokens.routes.ts';
import { wikiRoutes } from './routes/wiki.routes.ts';
import { bitableRecordRoutes } from './routes/bitable-records.routes.ts';
import { bitableRoutes } from './routes/bitable.routes.ts';
import { taskCommentRoutes } from './routes/task-comments.routes.ts';
import { taskRoutes } from './routes/task.routes.ts';
import { tasklistRoutes } from './routes/tasklist.routes.ts';
import { TaskStore } from './task-state.ts';
import { issueUserTokens, mintCode, type MintCodeInput } from './user-tokens.ts';

export interface LarkFakeOptions {
  /** Default 0 (a free port). */
  port?: number;
  host?: string;
  /** Default: wall-clock time that `advance` can move forward. Tests pass `new FakeClock({ frozen: true })`. */
  clock?: FakeClock;
  /** The default app (random cli_… id and secret unless given). */
  app?: LarkAppSeed;
  users?: LarkUserSeed[];
  chats?: LarkChatSeed[];
  bots?: BotSeed[];
  driveFiles?: DriveFileSeed[];
  wikiSpaces?: WikiSpaceSeed[];
  wikiNodes?: WikiNodeSeed[];
  /** Override (or with null, switch off) route limits, e.g. `{ 'im.message.create': { perSecond: 1 } }`. */
  rateLimits?: Record<string, RateLimit | null>;
}

export interface JsapiSignatureCheck {
  ticket: string;
  nonceStr: string;
  timestamp: string | number;
  url: string;
  signature: string;
}

export interface LarkFake extends FakeBase {
  /** Base URL for the open, accounts and passport hosts alike (no trailing slash). */
  readonly url: string;
  /** The default app. */
  readonly app: LarkApp;
  readonly state: LarkState;
  readonly botMessages: LarkState['botMessages'];
  readonly imMessages: LarkState['imMessages'];
  readonly subscriptions: LarkState['subscriptions'];
  readonly deliveries: LarkState['deliveries'];
  readonly jsTicketCalls: number;
  /** Task v2 (tasklists, tasks, custom fields, comments, attachments) and Bitable (bases, tables, records). */
  readonly tasks: TaskStore;
  readonly bitable: BitableStore;
  /** What a Lark user does in Task and Bitable ("edit in Lark" for sync tests). */
  readonly work: LarkWorkHooks;

  addApp(seed?: LarkAppSeed): LarkApp;
  addUser(seed: LarkUserSeed): LarkUser;
  addChat(seed?: LarkChatSeed): LarkChat;
  addBot(seed?: BotSeed): BotHook;
  addDriveFile(seed: DriveFileSeed): DriveFile;
  addWikiSpace(seed: WikiSpaceSeed): WikiSpace;
  addWikiNode(seed: WikiNodeSeed): WikiNode;

  /** Who approves (or denies) the next authorize request; queued, one per request. */
  setNextLogin(choice: LoginChoice): void;
  /** A code the token endpoint accepts, as the in-client silent login would hand the backend. */
  mintCode(input: Omit<MintCodeInput, 'appId'> & { appId?: string }): string;
  issueTenantToken(appId?: string): string;
  issueUserToken(input: { openId: string; appId?: string; scopes?: string[]; withRefresh?: boolean }): {
    accessToken: string;
    refreshToken?: string;
  };
  /** Makes a tenant, user or refresh token (or a code) expire now; false when unknown. */
  expireToken(token: string): boolean;
  revokeToken(token: string): boolean;

  setRateLimit(route: string, limit: RateLimit | null): void;

  pushEvent(input: PushEventInput): Promise<EventDelivery>;
  emitDriveEvent(input: EmitDriveEventInput): Promise<EventDelivery | { skipped: 'not_subscribed' }>;
  verifyEventUrl(url: string, appId?: string): Promise<UrlVerificationResult>;
  /** Checks a page signature the way the client would, against a ticket this fake issued. */
  verifyJsapiSignature(input: JsapiSignatureCheck): { ok: boolean; expected: string; reason?: string };

  /** Forgets tokens, codes, messages, deliveries, tasks, bases, requests, injected errors and rate windows; seeds stay. */
  reset(): void;
}

export async function startLarkFake(options: LarkFakeOptions = {}): Promise<LarkFake> {
  const clock = options.clock ?? new FakeClock();
  const state = new LarkState();
  const defaultApp = buildApp(options.app);
  state.apps.set(defaultApp.appId, defaultApp);
  const rateLimits = new Map<string, RateLimit>(Object.entries(DEFAULT_LARK_LIMITS));
  const ctx: LarkContext = {
    state,
    clock,
    limiter: new SlidingWindowLimiter(clock),
    rateLimits,
    events: new EventPusher(state, clock, () => defaultApp.appId),
    tasks: new TaskStore(),
    bitable: new BitableStore(),
    baseUrl: () => host.base.url,
  };
  const host = fakeHost(clock, () => {
    state.resetRuntime();
    ctx.tasks.reset();
    ctx.bitable.reset();
    ctx.limiter.reset();
    clock.clearTimers();
  });
  const setRateLimit = (route: string, limit: RateLimit | null) =>
    limit ? rateLimits.set(route, limit) : rateLimits.delete(route);
  for (const [route, limit] of Object.entries(options.rateLimits ?? {})) setRateLimit(route, limit);

  const fake = withFakeBase<LarkFake>(host.base, {
    app: defaultApp,
    state,
    get botMessages() {
      return state.botMessages;
    },
    get imMessages() {
      return state.imMessages;
    },
    get subscriptions() {
      return state.subscriptions;
    },
    get deliveries() {
      return state.deliveries;
    },
    get jsTicketCalls() {
      return state.jsTicketCalls;
    },
    tasks: ctx.tasks,
    bitable: ctx.bitable,
    work: larkWorkHooks(ctx, () => defaultApp.appId),
    addApp: (seed) => storeBy(state.apps, 'appId', buildApp(seed)),
    addUser: (seed) => storeBy(state.users, 'openId', buildUser(seed)),
    addChat: (seed) => storeBy(state.chats, 'chatId', buildChat(seed)),
    addBot: (seed) => storeBy(state.bots, 'token', buildBot(seed)),
    addDriveFile: (seed) => storeBy(state.driveFiles, 'token', buildDriveFile(seed)),
    addWikiSpace(seed) {
      const space = buildWikiSpace(seed);
      state.wikiSpaces.push(space);
      return space;
    },
    addWikiNode(seed) {
      if (!state.wikiSpaces.some((s) => s.space_id === seed.space_id))
        throw new Error(`unknown wiki space ${seed.space_id}`);
      const node = buildWikiNode(seed, clock.nowSeconds());
      state.wikiNodes.push(node);
      if (!state.driveFiles.has(node.obj_token))
        state.driveFiles.set(
          node.obj_token,
          buildDriveFile({ token: node.obj_token, type: driveTypeOf(node.obj_type) }),
        );
      return node;
    },
    setNextLogin(choice) {
      state.nextLogins.push(choice);
    },
    mintCode(input) {
      if (!state.users.has(input.openId)) throw new Error(`unknown user ${input.openId}`);
      return mintCode(ctx, { ...input, appId: input.appId ?? defaultApp.appId }).code;
    },
    issueTenantToken(appId) {
      return issueTenantToken(ctx, appId ?? defaultApp.appId).token.token;
    },
    issueUserToken(input) {
      const user = state.users.get(input.openId);
      if (!user) throw new Error(`unknown user ${input.openId}`);
      const issued = issueUserTokens(ctx, {
        kind: 'v2',
        appId: input.appId ?? defaultApp.appId,
        user,
        scopes: input.scopes ?? [],
        withRefresh: input.withRefresh ?? false,
      });
      return { accessToken: issued.access.token, refreshToken: issued.refresh?.token };
    },
    expireToken(token) {
      const now = clock.now();
      const target =
        state.tenantTokens.find((t) => t.token === token) ??
        state.userTokens.get(token) ??
        state.refreshTokens.get(token) ??
        state.codes.get(token);
      if (target) target.expiresAt = now;
      return Boolean(target);
    },
    revokeToken(token) {
      const target =
        state.tenantTokens.find((t) => t.token === token) ??
        state.userTokens.get(token) ??
        state.refreshTokens.get(token);
      if (target) target.revoked = true;
      return Boolean(target);
    },
    setRateLimit: (route, limit) => void setRateLimit(route, limit),
    pushEvent: (input) => ctx.events.push(input),
    emitDriveEvent: (input) => emitDriveEvent(ctx, defaultApp.appId, input),
    verifyEventUrl: (url, appId) => ctx.events.verifyUrl(url, appId),
    verifyJsapiSignature(input) {
      const expected = signJsapi(input);
      const ticket = state.jsTickets.find((t) => t.ticket === input.ticket);
      if (!ticket) return { ok: false, expected, reason: 'ticket was not issued by this fake' };
      if (ticket.expiresAt <= clock.now()) return { ok: false, expected, reason: 'ticket has expired' };
      if (input.url.includes('#')) return { ok: false, expected, reason: 'url must not contain # or what follows' };
      return input.signature === expected
        ? { ok: true, expected }
        : { ok: false, expected, reason: 'signature mismatch' };
    },
  });

  for (const seed of options.users ?? []) fake.addUser(seed);
  for (const seed of options.chats ?? []) fake.addChat(seed);
  for (const seed of options.bots ?? []) fake.addBot(seed);
  for (const seed of options.driveFiles ?? []) fake.addDriveFile(seed);
  for (const seed of options.wikiSpaces ?? []) fake.addWikiSpace(seed);
  for (const seed of options.wikiNodes ?? []) fake.addWikiNode(seed);

  const apiRoutes = withRateLimits(ctx, [
    ...tokenRoutes(ctx),
    ...oauthAuthorizeRoutes(ctx),
    ...oauthTokenRoutes(ctx),
    ...oauthUserRoutes(ctx),
    ...botHookRoutes(ctx),
    ...imRoutes(ctx),
    ...driveEventRoutes(ctx),
    ...driveMediaRoutes(ctx),
    ...mediaMultipartRoutes(ctx),
    ...wikiRoutes(ctx),
    ...taskRoutes(ctx),
    ...tasklistRoutes(ctx),
    ...taskCommentRoutes(ctx),
    ...bitableRoutes(ctx),
    ...bitableRecordRoutes(ctx),
  ]);
  await host.listen(
    {
      routes: [...larkControlRoutes(fake), ...larkWorkControlRoutes(fake.work), ...apiRoutes],
      notFound: () => ({ status: 404, body: { code: 99991201, msg: 'path not found' } }),
      methodNotAllowed: () => ({ status: 405, body: { code: 99991301, msg: 'http method not allowed' } }),
      decorate: (res) => {
        res.headers = {
          'x-tt-logid': `${new Date(clock.now()).toISOString().replace(/\D/g, '').slice(0, 14)}${randomHex(13).toUpperCase()}`,
          ...res.headers,
        };
      },
    },
    options,
  );
  return fake;
}
