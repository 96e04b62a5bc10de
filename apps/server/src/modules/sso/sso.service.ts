import { createHash } from 'node:crypto';
import {
  LARK_CALLBACK_PATH,
  SignInKind,
  SignInMessages,
  WECOM_CALLBACK_PATH,
  type JsapiConfig,
  type LoginResult,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { LarkApiError, type LarkClient } from '../../integrations/lark/lark-client.ts';
import { WecomApiError, type WecomClient } from '../../integrations/wecom/wecom-client.ts';
import type { Clock } from '../../lib/clock.ts';
import { hasUsablePassword, randomToken } from '../../lib/crypto.ts';
import type { SessionService } from '../auth/session.service.ts';
import type { UsersDirectory } from '../users/users-directory.ts';
import type { IdentitiesRepository } from './identities.repository.ts';
import type { SignInStates } from './sign-in-states.ts';
import type { ExternalProfile, SsoAccounts } from './sso-accounts.ts';

interface ClientMeta {
  ip: string;
  userAgent: string | null;
}

export interface SsoServiceDeps {
  states: SignInStates;
  accounts: SsoAccounts;
  identities: IdentitiesRepository;
  users: UsersDirectory;
  sessions: SessionService;
  lark: LarkClient | null;
  wecom: WecomClient | null;
  clock: Clock;
}

/** Lark's answers to a bad, used, expired or foreign code (authen v2), or to a user token that is not good. */
const LARK_CODE_ERRORS = new Set([20003, 20004, 20065, 20071, 20024, 20049, 99991668, 99991677]);
/** The Lark account may not sign in: gone, resigned, frozen, unregistered, or outside the app's availability. */
const LARK_USER_ERRORS = new Set([20008, 20010, 20066, 20021, 20022, 20023]);
/** Our Lark app is wrong: bad secret, unknown, not installed or disabled (a token or exchange refused). */
const LARK_APP_ERRORS = new Set([20002, 20009, 20048, 20069, 10003, 10014, 10015]);
/** WeCom refuses our app: bad secret, unknown corp or agent. */
const WECOM_APP_ERRORS = new Set([40001, 40013, 40056, 41002, 41004]);

/** What the user is told when Lark refuses or fails; anything unexpected reads as an outage. */
function larkFailure(error: unknown): AppError {
  if (error instanceof LarkApiError) {
    if (LARK_USER_ERRORS.has(error.code)) return AppError.badRequest(SignInMessages.larkUserBlocked);
    if (LARK_APP_ERRORS.has(error.code))
      return new AppError('internal', SignInMessages.larkMisconfigured, { cause: error });
    const refused = error.httpStatus >= 400 && error.httpStatus < 500 && error.code !== 99991400;
    if (LARK_CODE_ERRORS.has(error.code) || refused) return AppError.badRequest(SignInMessages.codeRejected);
  }
  return new AppError('internal', SignInMessages.providerUnavailable, { cause: error });
}

function wecomFailure(error: unknown): AppError {
  if (error instanceof WecomApiError && error.errcode === 0) return AppError.badRequest(SignInMessages.notMember);
  if (error instanceof WecomApiError && error.errcode === 40029)
    return AppError.badRequest(SignInMessages.wecomCodeRejected);
  if (error instanceof WecomApiError && WECOM_APP_ERRORS.has(error.errcode))
    return new AppError('internal', SignInMessages.wecomMisconfigured, { cause: error });
  return new AppError('internal', SignInMessages.wecomUnavailable, { cause: error });
}

/** Sign-in through Lark (redirect, silent, QR, terminal, bind) and WeCom. */
export function createSsoService(deps: SsoServiceDeps) {
  const { states, accounts, sessions, clock } = deps;

  function lark(): LarkClient {
    if (!deps.lark) throw AppError.badRequest(SignInMessages.larkOff);
    return deps.lark;
  }
  function wecom(): WecomClient {
    if (!deps.wecom) throw AppError.badRequest(SignInMessages.wecomOff);
    return deps.wecom;
  }

  /** The Lark account behind a code; Lark's refusals become a clear message, outages a retry hint. */
  async function larkProfile(code: string, redirectUri?: string): Promise<ExternalProfile> {
    const client = lark();
    try {
      const info = await client.userInfo(await client.exchangeCode(code, redirectUri));
      return {
        provider: 'lark',
        subject: info.openId,
        unionId: info.unionId,
        name: info.name,
        avatarUrl: info.avatarUrl,
        mobile: info.mobile,
      };
    } catch (error) {
      throw larkFailure(error);
    }
  }

  async function openSession(userId: number, meta: ClientMeta): Promise<LoginResult> {
    const user = await deps.users.findById(userId);
    if (!user) throw AppError.badRequest(SignInMessages.stateInvalid);
    const session = await sessions.open(userId, meta);
    const full = await deps.users.findByUsername(user.username);
    return {
      userId,
      username: user.username,
      roleLevel: user.roleLevel,
      token: session.token,
      tokenTime: session.tokenTime,
      url: full?.privateUrl ?? null,
    };
  }

  return {
    /** The authorize URL for a browser (success_login, bind_login) or a CLI (terminal_login) sign-in. */
    async larkLoginUrl(input: {
      mode: 'success_login' | 'terminal_login' | 'bind_login';
      port?: number;
      baseUrl: string;
      userId?: number;
    }) {
      const client = lark();
      if (input.mode === SignInKind.terminal && !input.port) throw AppError.badRequest('终端登录需要本地端口 port');
      if (input.mode === SignInKind.bind && input.userId === undefined) throw AppError.unauthorized();
      const redirectUri = `${input.baseUrl}${LARK_CALLBACK_PATH}`;
      const issued = await states.issue(
        input.mode,
        { redirectUri, port: input.port },
        { bound: input.mode !== SignInKind.terminal, userId: input.userId },
      );
      return {
        url: client.authorizeUrl(redirectUri, issued.state),
        state: issued.state,
        expiresAt: issued.expiresAt,
        binding: issued.binding,
      };
    },

    /**
     * A Lark code for a session. With a state: the code came back through a redirect this server started
     * (the state is taken once, from the browser that started it, or by the CLI that holds it). Without: a
     * code the Lark client's JS bridge gave the page itself (silent login; no redirect URI).
     */
    async larkLogin(
      input: { code: string; state?: string; redirectUri?: string },
      binding: string | null,
      meta: ClientMeta,
    ): Promise<LoginResult> {
      if (!input.state) return openSession(await accounts.resolve(await larkProfile(input.code)), meta);
      const row = await states.take(input.state, [SignInKind.success, SignInKind.terminal, SignInKind.bind], binding);
      if (input.redirectUri && input.redirectUri !== row.data.redirectUri)
        throw AppError.badRequest(SignInMessages.stateInvalid);
      const profile = await larkProfile(input.code, row.data.redirectUri);
      if (row.purpose === SignInKind.bind && row.user_id !== null) {
        await accounts.resolve(profile, row.user_id);
        return openSession(row.user_id, meta);
      }
      return openSession(await accounts.resolve(profile), meta);
    },

    /** Lark or WeCom sent the browser back with `error` (the user declined): the state is spent. */
    async denied(state: string) {
      const row = await states.load(state);
      await states.transition(row.state_hash, 'pending', 'denied');
    },

    /** A QR code for signing in on this screen from a phone: the phone scans and approves in Lark. */
    async qrStart(baseUrl: string) {
      const client = lark();
      const redirectUri = `${baseUrl}${LARK_CALLBACK_PATH}`;
      // Bound to the waiting screen: the QR (and so its state) is visible to anyone near the screen, who
      // must not be able to poll the session away once the phone approves.
      const issued = await states.issue(SignInKind.qr, { redirectUri }, { bound: true });
      return {
        qrId: issued.state,
        url: client.authorizeUrl(redirectUri, issued.state),
        expiresAt: issued.expiresAt,
        binding: issued.binding,
      };
    },

    /** The phone's half: its code (or refusal) settles the QR; the waiting screen picks the session up. */
    async qrConfirm(input: { state: string; code?: string; error?: string }) {
      const row = await states.load(input.state);
      if (row.purpose !== SignInKind.qr || row.status !== 'pending')
        throw AppError.badRequest(SignInMessages.stateInvalid);
      if (!input.code) {
        await states.transition(row.state_hash, 'pending', 'denied');
        return { status: 'denied' as const };
      }
      const userId = await accounts.resolve(await larkProfile(input.code, row.data.redirectUri));
      if (!(await states.transition(row.state_hash, 'pending', 'done', userId)))
        throw AppError.badRequest(SignInMessages.stateInvalid);
      return { status: 'done' as const };
    },

    /** The waiting screen's poll: a session once, when the phone approved. */
    async qrPoll(
      qrId: string,
      binding: string | null,
      meta: ClientMeta,
    ): Promise<{ status: 'pending' | 'done' | 'denied' | 'expired'; login: LoginResult | null }> {
      const row = await states.load(qrId).catch(() => null);
      if (!row || row.purpose !== SignInKind.qr || row.status === 'used' || !states.isBoundTo(row, binding))
        return { status: 'expired', login: null };
      if (row.status !== 'done' || row.user_id === null)
        return { status: row.status === 'denied' ? 'denied' : 'pending', login: null };
      if (!(await states.transition(row.state_hash, 'done', 'used'))) return { status: 'expired', login: null };
      return { status: 'done', login: await openSession(row.user_id, meta) };
    },

    /** What the Lark client's JS bridge needs to trust a page of ours: the jsapi-ticket signature of its URL. */
    async jsapiConfig(pageUrl: string, baseUrl: string): Promise<JsapiConfig> {
      const client = lark();
      const url = pageUrl.split('#')[0] ?? pageUrl;
      if (new URL(url).origin !== new URL(baseUrl).origin) throw AppError.badRequest(SignInMessages.urlNotOurs);
      let ticket: string;
      try {
        ticket = await client.jsapiTicket();
      } catch (error) {
        throw larkFailure(error);
      }
      const nonceStr = randomToken().slice(0, 16);
      const timestamp = clock.now();
      const signature = createHash('sha1')
        .update(`jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url}`)
        .digest('hex');
      return { appId: client.config.appId, timestamp, nonceStr, signature };
    },

    async wecomLoginUrl(baseUrl: string) {
      const client = wecom();
      const redirectUri = `${baseUrl}${WECOM_CALLBACK_PATH}`;
      const issued = await states.issue(SignInKind.wecom, { redirectUri }, { bound: true });
      return {
        url: client.loginUrl(redirectUri, issued.state),
        state: issued.state,
        expiresAt: issued.expiresAt,
        binding: issued.binding,
      };
    },

    async wecomLogin(
      input: { code: string; state: string },
      binding: string | null,
      meta: ClientMeta,
    ): Promise<LoginResult> {
      const client = wecom();
      await states.take(input.state, [SignInKind.wecom], binding);
      let member: { userId: string; name: string };
      try {
        member = await client.member(input.code);
      } catch (error) {
        throw wecomFailure(error);
      }
      const userId = await accounts.resolve({
        provider: 'wecom',
        subject: member.userId,
        unionId: null,
        name: member.name,
        avatarUrl: null,
        mobile: null,
      });
      return openSession(userId, meta);
    },

    async identitiesOf(userId: number) {
      const rows = await deps.identities.listOf(userId);
      return rows.map((row) => ({
        provider: row.provider,
        displayName: row.display_name,
        avatarUrl: row.avatar_url,
        createTime: row.create_time,
      }));
    },

    /** Refused when it would leave an account without a password and without any linked account. */
    async unbind(userId: number, provider: 'lark' | 'wecom') {
      const user = await deps.users.findById(userId);
      const full = user ? await deps.users.findByUsername(user.username) : undefined;
      const linked = await deps.identities.listOf(userId);
      const others = linked.filter((row) => row.provider !== provider);
      if (full && !hasUsablePassword(full.passwordHash) && others.length === 0 && linked.length > others.length)
        throw AppError.badRequest(SignInMessages.lastSignInMethod);
      await deps.identities.remove(userId, provider);
    },

    purgeExpired: () => states.deleteExpired(),
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
