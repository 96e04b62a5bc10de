import { z } from 'zod';
import { idParam, intFromQuery, pageQuery, trimmedName } from './common.ts';

/** API tokens look like `rst_<base64url of 32 random bytes>`; the prefix tells them from session tokens. */
export const API_TOKEN_PREFIX = 'rst_';
/** How many leading characters of a token are kept to tell tokens apart in lists. */
export const API_TOKEN_SHOWN_CHARS = 8;
export const API_TOKEN_MAX_DAYS = 3650;
/** A token's last use is written at most this often. */
export const API_TOKEN_TOUCH_INTERVAL_MS = 60_000;

/** One token as lists show it: never the token itself. */
export const apiTokenRow = z.object({
  id: z.number(),
  userId: z.number(),
  name: z.string(),
  /** The token's first 8 characters (`rst_AbCd`). */
  prefix: z.string(),
  createTime: z.number(),
  lastUsedTime: z.number().nullable(),
  expireTime: z.number().nullable(),
  revokedTime: z.number().nullable(),
});
export type ApiTokenRow = z.infer<typeof apiTokenRow>;

/** GET /api/api_tokens: the caller's tokens; admins may name another user. Newest first. */
export const apiTokenListQuery = pageQuery.extend({ userId: idParam.optional() });
export type ApiTokenListQuery = z.infer<typeof apiTokenListQuery>;

/** POST /api/api_token: a new token, for the caller or (admins only) another user. */
export const createApiTokenBody = z.object({
  name: trimmedName,
  /** Lifetime in days; without it the token lives until revoked. */
  expireDays: intFromQuery.min(1).max(API_TOKEN_MAX_DAYS).optional(),
  userId: idParam.optional(),
});
export type CreateApiTokenBody = z.infer<typeof createApiTokenBody>;

/** The answer of POST /api/api_token: the only time the plain token is shown. */
export const createdApiToken = apiTokenRow.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiToken>;

/** DELETE /api/api_token?id: revokes a token (its row stays, marked revoked). */
export const apiTokenIdQuery = z.object({ id: idParam });

export const ApiTokenMessages = {
  notFound: '令牌不存在',
  sessionRequired: '请登录后再创建令牌（不能用 API 令牌创建令牌）',
} as const;
