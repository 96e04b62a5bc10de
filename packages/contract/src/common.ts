import { z } from 'zod';
import { NAME_MAX_LENGTH } from './constants.ts';

/** Query numbers arrive as strings; accept both. */
export const intFromQuery = z.coerce.number().int();
export const pageQuery = z.object({
  pageNo: intFromQuery.min(1).default(1),
  pageSize: intFromQuery.min(1).max(1000).default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** The client sends the lowercase hex SHA-256 of the UTF-8 password (SPEC §5). */
export const passwordDigest = z.string().regex(/^[0-9a-f]{64}$/, '密码需为客户端计算的SHA-256摘要');

export const trimmedName = z
  .string()
  .trim()
  .min(1, '不能为空')
  .max(NAME_MAX_LENGTH, `不能超过${NAME_MAX_LENGTH}个字符`);

export const phoneNumber = z
  .string()
  .trim()
  .regex(/^\+?[0-9]{6,20}$/, '手机号格式不正确');

export const phoneCode = z
  .string()
  .trim()
  .regex(/^[0-9]{6}$/, '验证码为6位数字');

export const idParam = intFromQuery.min(1);
