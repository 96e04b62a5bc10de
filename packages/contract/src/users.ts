import { z } from 'zod';
import { idParam, intFromQuery, pageQuery, passwordDigest, phoneNumber, trimmedName } from './common.ts';

export const userRow = z.object({
  userId: z.number(),
  username: z.string(),
  roleId: z.number(),
  roleName: z.string(),
  roleLevel: z.number(),
  phone: z.string().nullable(),
  createTime: z.number(),
});
export type UserRow = z.infer<typeof userRow>;

export const userListQuery = pageQuery.extend({ keyword: z.string().trim().max(64).optional() });
export type UserListQuery = z.infer<typeof userListQuery>;

/** Create (no userId) or update (userId). A password is required on create, optional on update. */
export const saveUserBody = z.object({
  userId: intFromQuery.min(1).optional(),
  username: trimmedName,
  password: passwordDigest.optional(),
  roleId: intFromQuery.min(1),
  phone: phoneNumber
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
});
export type SaveUserBody = z.infer<typeof saveUserBody>;

export const userIdQuery = z.object({ userId: idParam });
export const setUserRoleBody = z.object({ userId: idParam, roleId: idParam });
export type SetUserRoleBody = z.infer<typeof setUserRoleBody>;

export const userBrief = z.object({ userId: z.number(), username: z.string(), roleLevel: z.number() });
export type UserBrief = z.infer<typeof userBrief>;
