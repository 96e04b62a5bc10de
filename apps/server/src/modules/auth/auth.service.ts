import {
  Messages,
  type ForgetPasswordBody,
  type LoginBody,
  type LoginOptions,
  type LoginResult,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, sha256Hex, verifyPassword } from '../../lib/crypto.ts';
import type { SmsProvider } from '../../sms/sms-provider.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { UsersDirectory } from '../users/users-directory.ts';
import type { AttemptLimiter } from './attempt-limiter.ts';
import type { PhoneCodeService } from './phone-code.service.ts';
import type { SessionService } from './session.service.ts';

interface ClientMeta {
  ip: string;
  userAgent: string | null;
}

export interface AuthServiceDeps {
  users: UsersDirectory;
  sessions: SessionService;
  guard: AttemptLimiter;
  phoneCodes: PhoneCodeService;
  settings: SettingsService;
  sms: SmsProvider;
  clock: Clock;
  /** Our Lark app id when Lark sign-in is configured. */
  larkAppId: string | null;
  wecomEnabled: boolean;
}

/**
 * Whose sign-in guesses a counter holds: the account when the name reaches one, else the name as typed, lowered (its
 * digest when lowering made it longer than the column: 'İ' lowers to two characters).
 */
function guessSubject(user: { userId: number } | undefined, typed: string): string {
  if (user) return `user:${user.userId}`;
  const name = `name:${typed.toLowerCase()}`;
  return name.length <= 128 ? name : `name#${sha256Hex(name)}`;
}

export function createAuthService(deps: AuthServiceDeps) {
  const { users, sessions, guard, phoneCodes, settings, sms, clock } = deps;

  async function needsPhoneCode(phone: string | null): Promise<boolean> {
    if (!phone) return false;
    const { phoneCodeMode } = await settings.read();
    if (phoneCodeMode === 'never') return false;
    if (phoneCodeMode === 'always') return true;
    return sms.isReal;
  }

  return {
    async loginOptions(): Promise<LoginOptions> {
      const { phoneCodeMode } = await settings.read();
      return {
        larkEnabled: deps.larkAppId !== null,
        larkAppId: deps.larkAppId,
        wecomEnabled: deps.wecomEnabled,
        phoneCodeMode,
        smsConfigured: sms.isReal,
      };
    },

    async login(body: LoginBody, meta: ClientMeta): Promise<LoginResult> {
      // The lookup folds case in SQL, which folds some letters otherwise than JavaScript (PostgreSQL lowers 'İ' to 'i'):
      // the account found keys the guess counter, so every spelling that reaches it shares one count.
      const user = await users.findByUsername(body.username);
      // The guess is counted before the password is checked; a wrong one stays counted.
      const admission = await guard.admit('login', guessSubject(user, body.username), meta.ip);
      if (!admission.allowed) throw AppError.tooManyRequests(Messages.tooManyLoginFailures);
      // Hash even for unknown users so timing does not reveal which usernames exist.
      const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!user || !passwordOk) throw AppError.badRequest(Messages.wrongCredentials);
      if (await needsPhoneCode(user.phone)) {
        if (!body.phoneCode) {
          // The first step of a two-step sign-in: the password was right, the code is still to come.
          await admission.guess.release();
          throw AppError.badRequest(Messages.phoneCodeRequired);
        }
        await phoneCodes.consume(user.userId, 'login', body.phoneCode);
      }
      await admission.guess.succeeded();
      const session = await sessions.open(user.userId, meta);
      return {
        userId: user.userId,
        username: user.username,
        roleLevel: user.roleLevel,
        token: session.token,
        tokenTime: session.tokenTime,
        url: user.privateUrl,
      };
    },

    async sendPhoneCode(username: string, scene: string) {
      const user = await users.findByUsername(username);
      // Unknown users and users without a phone get the same answer.
      if (!user?.phone) throw AppError.badRequest(Messages.noPhone);
      return phoneCodes.send({ userId: user.userId, phone: user.phone }, scene);
    },

    async resetPassword(body: ForgetPasswordBody) {
      const user = await users.findByUsername(body.username);
      if (!user?.phone) throw AppError.badRequest(Messages.noPhone);
      await phoneCodes.consume(user.userId, 'forget_password', body.phoneCode);
      await users.update(user.userId, { password_hash: await hashPassword(body.password), update_time: clock.now() });
      await sessions.revokeAllOf(user.userId);
      await guard.clearSubject('login', guessSubject(user, body.username));
    },

    async logout(token: string) {
      await sessions.revoke(token);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
