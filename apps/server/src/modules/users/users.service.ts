import { ADMIN_ROLE_LEVEL, Messages, type SaveUserBody, type UserRow } from '@release/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, sha256Hex } from '../../lib/crypto.ts';
import type { RolesDirectory } from '../roles/roles-directory.ts';
import type { UsersRepository } from './users.repository.ts';

/** What user administration asks of sessions (modules/auth): ending a user's sessions when their account changes. */
export interface SessionRevoker {
  revokeAllOf(userId: number, keepToken?: string | null): Promise<void>;
}

export function createUsersService(deps: {
  users: UsersRepository;
  roles: RolesDirectory;
  sessions: SessionRevoker;
  clock: Clock;
}) {
  const { users, roles, sessions, clock } = deps;

  async function assertRole(roleId: number) {
    const role = await roles.findById(roleId);
    if (!role) throw AppError.badRequest(Messages.roleNotFound);
    return role;
  }

  /** Refuses a change that would leave no admin at all. */
  async function assertKeepsAnAdmin(userId: number, nextRoleLevel: number | null) {
    const user = await users.findById(userId);
    if (user?.roleLevel !== ADMIN_ROLE_LEVEL || nextRoleLevel === ADMIN_ROLE_LEVEL) return;
    if ((await users.countAdmins()) <= 1) throw AppError.conflict(Messages.lastAdmin);
  }

  return {
    async list(query: {
      pageNo: number;
      pageSize: number;
      keyword?: string;
    }): Promise<{ rows: UserRow[]; total: number }> {
      return users.list({ offset: (query.pageNo - 1) * query.pageSize, limit: query.pageSize, keyword: query.keyword });
    },

    listBrief: () => users.listBrief(),

    async usernames(): Promise<string[]> {
      return (await users.listBrief()).map((u) => u.username);
    },

    /** Creates or edits a user; `actor` is the signed-in admin making the change. */
    async save(
      body: SaveUserBody,
      actor: { userId: number; sessionToken: string | null },
    ): Promise<{ userId: number }> {
      const role = await assertRole(body.roleId);
      const sameName = await users.findByUsername(body.username);
      if (sameName && sameName.userId !== body.userId) throw AppError.conflict(Messages.userExists);
      const now = clock.now();
      if (body.userId === undefined) {
        if (!body.password) throw AppError.badRequest('参数错误：password 新建用户必须设置密码');
        const userId = await users.insert({
          username: body.username,
          password_hash: await hashPassword(body.password),
          role_id: role.id,
          phone: body.phone ?? null,
          private_url: null,
          create_time: now,
          update_time: now,
        });
        return { userId };
      }
      const existing = await users.findById(body.userId);
      if (!existing) throw AppError.notFound(Messages.userNotFound);
      await assertKeepsAnAdmin(existing.userId, role.role_level);
      await users.update(existing.userId, {
        username: body.username,
        role_id: role.id,
        ...(body.phone !== undefined ? { phone: body.phone } : {}),
        ...(body.password ? { password_hash: await hashPassword(body.password) } : {}),
        update_time: now,
      });
      // A new password ends every other session of that user; an admin changing their own keeps this one.
      if (body.password)
        await sessions.revokeAllOf(existing.userId, existing.userId === actor.userId ? actor.sessionToken : null);
      return { userId: existing.userId };
    },

    async setRole(userId: number, roleId: number) {
      const role = await assertRole(roleId);
      if (!(await users.findById(userId))) throw AppError.notFound(Messages.userNotFound);
      await assertKeepsAnAdmin(userId, role.role_level);
      await users.update(userId, { role_id: role.id, update_time: clock.now() });
    },

    async remove(userId: number, actingUserId: number) {
      if (userId === actingUserId) throw AppError.conflict(Messages.cannotDeleteSelf);
      if (!(await users.findById(userId))) throw AppError.notFound(Messages.userNotFound);
      await assertKeepsAnAdmin(userId, null);
      await users.delete(userId);
    },

    /** Creates the first admin on an empty database; returns the generated password when one was made. */
    async ensureFirstAdmin(
      username: string,
      plainPassword: string | undefined,
      generate: () => string,
    ): Promise<{ created: boolean; generatedPassword?: string }> {
      if ((await users.count()) > 0) return { created: false };
      const adminRole = (await roles.list(0, 1000)).rows.find((r) => r.roleLevel === ADMIN_ROLE_LEVEL);
      if (!adminRole) throw new Error('No admin role to give the first admin');
      const password = plainPassword ?? generate();
      const now = clock.now();
      try {
        await users.insert({
          username,
          password_hash: await hashPassword(sha256Hex(password)),
          role_id: adminRole.roleId,
          phone: null,
          private_url: null,
          create_time: now,
          update_time: now,
        });
      } catch (error) {
        // Another process starting at the same moment created the first admin.
        if (isUniqueViolation(error)) return { created: false };
        throw error;
      }
      return { created: true, generatedPassword: plainPassword ? undefined : password };
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
