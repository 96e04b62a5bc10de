import { ADMIN_ROLE_LEVEL, Messages, type RoleRow, type SaveRoleBody } from '@release/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RolesRepository } from './roles.repository.ts';

/** Roles seeded on an empty database: the built-in admin role and three everyday ones. */
export const DEFAULT_ROLES = [
  { roleName: '管理员', roleLevel: ADMIN_ROLE_LEVEL, builtin: true },
  { roleName: '开发', roleLevel: 30, builtin: false },
  { roleName: '测试', roleLevel: 20, builtin: false },
  { roleName: '编辑', roleLevel: 10, builtin: false },
] as const;

/** What roles ask of users (modules/users): how many admins there are, so the last one keeps the admin role. */
export interface AdminCount {
  countAdmins(): Promise<number>;
}

export function createRolesService(deps: { roles: RolesRepository; users: AdminCount; clock: Clock }) {
  const { roles, users, clock } = deps;
  return {
    async list(pageNo: number, pageSize: number): Promise<{ rows: RoleRow[]; total: number }> {
      const { rows, total } = await roles.list((pageNo - 1) * pageSize, pageSize);
      return { rows: rows.map((r) => ({ ...r, userCount: Number(r.userCount), builtin: r.builtin === 1 })), total };
    },

    async save(body: SaveRoleBody): Promise<{ roleId: number }> {
      const sameName = await roles.findByName(body.roleName);
      if (sameName && sameName.id !== body.roleId) throw AppError.conflict(Messages.roleExists);
      if (body.roleId === undefined) {
        return { roleId: await roles.insert({ ...body, builtin: false, now: clock.now() }) };
      }
      const existing = await roles.findById(body.roleId);
      if (!existing) throw AppError.notFound(Messages.roleNotFound);
      // The built-in admin role keeps level 100, or nobody could administer the system.
      const roleLevel = existing.builtin === 1 ? ADMIN_ROLE_LEVEL : body.roleLevel;
      if (existing.role_level === ADMIN_ROLE_LEVEL && roleLevel !== ADMIN_ROLE_LEVEL) {
        const affected = await roles.countUsers(existing.id);
        if (affected > 0 && (await users.countAdmins()) <= affected) throw AppError.conflict(Messages.lastAdmin);
      }
      await roles.update(existing.id, { roleName: body.roleName, roleLevel });
      return { roleId: existing.id };
    },

    async remove(roleId: number) {
      const existing = await roles.findById(roleId);
      if (!existing) throw AppError.notFound(Messages.roleNotFound);
      if (existing.builtin === 1) throw AppError.conflict(Messages.roleBuiltin);
      if ((await roles.countUsers(roleId)) > 0) throw AppError.conflict(Messages.roleInUse);
      await roles.delete(roleId);
    },

    /** Seeds the default roles on an empty database; another process seeding at the same time is fine. */
    async seedDefaults() {
      if ((await roles.count()) > 0) return;
      for (const role of DEFAULT_ROLES) {
        try {
          await roles.insert({ ...role, now: clock.now() });
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
      }
    },
  };
}
export type RolesService = ReturnType<typeof createRolesService>;
