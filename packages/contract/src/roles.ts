import { z } from 'zod';
import { idParam, intFromQuery, pageQuery, trimmedName } from './common.ts';

export const roleRow = z.object({
  roleId: z.number(),
  roleName: z.string(),
  roleLevel: z.number(),
  userCount: z.number(),
  builtin: z.boolean(),
});
export type RoleRow = z.infer<typeof roleRow>;

export const roleListQuery = pageQuery.extend({ pageSize: intFromQuery.min(1).max(1000).default(10) });
export const saveRoleBody = z.object({
  roleId: intFromQuery.min(1).optional(),
  roleName: trimmedName,
  roleLevel: intFromQuery.min(0).max(100),
});
export type SaveRoleBody = z.infer<typeof saveRoleBody>;
export const roleIdQuery = z.object({ roleId: idParam });
