import { ADMIN_ROLE_LEVEL, SignInMessages } from '@release/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { NO_PASSWORD_HASH, randomToken } from '../../lib/crypto.ts';
import type { RolesDirectory } from '../roles/roles-directory.ts';
import type { UsersDirectory } from '../users/users-directory.ts';
import type { IdentitiesRepository } from './identities.repository.ts';

export interface ExternalProfile {
  provider: 'lark' | 'wecom';
  /** Lark open_id of our app, or the WeCom userid. */
  subject: string;
  unionId: string | null;
  name: string;
  avatarUrl: string | null;
  /** As the Lark tenant's admin entered it; used only to find an account an admin prepared (see decisions). */
  mobile: string | null;
}

/**
 * Finds the local user behind a Lark / WeCom account: the linked one; else, the first time, the one account
 * whose phone number an admin set to the Lark mobile (pre-binding); else a new account with the lowest role.
 * `bindTo` links the account to a signed-in user instead (the bind flow).
 */
export function createSsoAccounts(deps: {
  identities: IdentitiesRepository;
  users: UsersDirectory;
  roles: RolesDirectory;
  clock: Clock;
}) {
  const { identities, users, roles, clock } = deps;

  async function link(userId: number, profile: ExternalProfile) {
    const now = clock.now();
    try {
      await identities.insert({
        user_id: userId,
        provider: profile.provider,
        subject: profile.subject,
        union_id: profile.unionId,
        display_name: profile.name,
        avatar_url: profile.avatarUrl,
        create_time: now,
        last_login_time: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(SignInMessages.identityTaken);
      throw error;
    }
  }

  async function preparedAccount(profile: ExternalProfile): Promise<number | null> {
    if (!profile.mobile) return null;
    const phone = profile.mobile.replace(/^\+86/, '');
    const matches = await users.findByPhone(phone);
    const only = matches.length === 1 ? matches[0] : undefined;
    if (!only || (await identities.hasProvider(only.userId, profile.provider))) return null;
    return only.userId;
  }

  async function freeUsername(name: string): Promise<string> {
    const base = name.trim().slice(0, 60) || 'user';
    for (let n = 1; n < 1000; n += 1) {
      const candidate = n === 1 ? base : `${base}${n}`;
      if (!(await users.findByUsername(candidate))) return candidate;
    }
    return `${base}${randomToken().slice(0, 6)}`;
  }

  async function lowestRoleId(): Promise<number> {
    const { rows } = await roles.list(0, 1000);
    const candidates = rows
      .filter((role) => role.roleLevel < ADMIN_ROLE_LEVEL)
      .sort((a, b) => a.roleLevel - b.roleLevel);
    const role = candidates[0];
    if (!role) throw AppError.badRequest('没有可分配给新用户的角色，请管理员先创建一个非管理员角色');
    return role.roleId;
  }

  async function createAccount(profile: ExternalProfile): Promise<number> {
    const now = clock.now();
    const roleId = await lowestRoleId();
    for (let attempt = 0; ; attempt += 1) {
      try {
        // No usable password: this account signs in through Lark / WeCom until an admin sets one.
        return await users.insert({
          username: await freeUsername(profile.name),
          password_hash: NO_PASSWORD_HASH,
          role_id: roleId,
          phone: null,
          private_url: null,
          create_time: now,
          update_time: now,
        });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 3) throw error;
      }
    }
  }

  return {
    async resolve(profile: ExternalProfile, bindTo?: number): Promise<number> {
      const linked = await identities.findBySubject(profile.provider, profile.subject);
      if (bindTo !== undefined) {
        if (linked && linked.user_id !== bindTo) throw AppError.conflict(SignInMessages.identityTaken);
        if (!linked) await link(bindTo, profile);
        return bindTo;
      }
      if (linked) {
        await identities.touch(profile.provider, profile.subject, {
          display_name: profile.name,
          avatar_url: profile.avatarUrl,
          union_id: profile.unionId,
          last_login_time: clock.now(),
        });
        return linked.user_id;
      }
      const userId = (await preparedAccount(profile)) ?? (await createAccount(profile));
      try {
        await link(userId, profile);
      } catch (error) {
        // Two first sign-ins of one account at once: the other request linked it; use its user.
        const winner = await identities.findBySubject(profile.provider, profile.subject);
        if (!winner) throw error;
        return winner.user_id;
      }
      return userId;
    },
  };
}
export type SsoAccounts = ReturnType<typeof createSsoAccounts>;
