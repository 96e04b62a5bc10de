import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  API_TOKEN_SHOWN_CHARS,
  API_TOKEN_TOUCH_INTERVAL_MS,
  ApiTokenMessages,
  Messages,
  type ApiTokenListQuery,
  type ApiTokenRow,
  type CreateApiTokenBody,
  type CreatedApiToken,
} from '@release/contract';
import type { Selectable } from 'kysely';
import type { ApiTokensTable } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import type { SessionUserRow } from '../auth/session.repository.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { UsersDirectory } from '../users/users-directory.ts';
import type { ApiTokensRepository } from './api-tokens.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function present(row: Selectable<ApiTokensTable>): ApiTokenRow {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    prefix: row.prefix,
    createTime: row.create_time,
    lastUsedTime: row.last_used_time,
    expireTime: row.expire_time,
    revokedTime: row.revoked_time,
  };
}

/** Per-user API tokens for the CLI and CI: shown once, stored as SHA-256, revocable, optionally expiring. */
export function createApiTokensService(deps: { tokens: ApiTokensRepository; users: UsersDirectory; clock: Clock }) {
  const { tokens, users, clock } = deps;

  /** Whose tokens the actor may manage: their own, or anyone's for admins. */
  function ownerFor(actor: AuthUser, userId: number | undefined): number {
    const target = userId ?? actor.userId;
    if (target !== actor.userId && !actor.isAdmin) throw AppError.noPermission();
    return target;
  }

  return {
    async list(actor: AuthUser, query: ApiTokenListQuery): Promise<{ rows: ApiTokenRow[]; total: number }> {
      const owner = ownerFor(actor, query.userId);
      const { rows, total } = await tokens.listByUser(owner, {
        offset: (query.pageNo - 1) * query.pageSize,
        limit: query.pageSize,
      });
      return { rows: rows.map(present), total };
    },

    async create(actor: AuthUser, body: CreateApiTokenBody): Promise<CreatedApiToken> {
      // A leaked token must not be able to mint itself a longer-lived successor.
      if (actor.viaApiToken) throw AppError.noPermission(ApiTokenMessages.sessionRequired);
      const owner = ownerFor(actor, body.userId);
      if (owner !== actor.userId && !(await users.findById(owner))) throw AppError.notFound(Messages.userNotFound);
      const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const now = clock.now();
      const row = {
        user_id: owner,
        name: body.name,
        token_hash: sha256Hex(token),
        prefix: token.slice(0, API_TOKEN_SHOWN_CHARS),
        create_time: now,
        last_used_time: null,
        expire_time: body.expireDays === undefined ? null : now + body.expireDays * DAY_MS,
        revoked_time: null,
      };
      const id = await tokens.insert(row);
      return { ...present({ ...row, id }), token };
    },

    async revoke(actor: AuthUser, id: number): Promise<void> {
      const row = await tokens.findById(id);
      // Someone else's token is "not found" for a plain user: ids are not a way to probe.
      if (!row || (row.user_id !== actor.userId && !actor.isAdmin)) throw AppError.notFound(ApiTokenMessages.notFound);
      await tokens.revoke(id, clock.now());
    },

    /** The user behind a live token, or null when it is unknown, revoked or expired. Records its use. */
    async resolve(token: string): Promise<SessionUserRow | null> {
      const row = await tokens.findUserByTokenHash(sha256Hex(token));
      const now = clock.now();
      if (!row || row.revokedTime !== null || (row.tokenExpireTime !== null && row.tokenExpireTime <= now)) return null;
      if (row.lastUsedTime === null || now - row.lastUsedTime >= API_TOKEN_TOUCH_INTERVAL_MS) {
        await tokens.touch(row.tokenId, now, now - API_TOKEN_TOUCH_INTERVAL_MS);
      }
      return {
        userId: row.userId,
        username: row.username,
        roleLevel: row.roleLevel,
        roleName: row.roleName,
        phone: row.phone,
        privateUrl: row.privateUrl,
        createTime: row.createTime,
        expireTime: row.tokenExpireTime ?? Number.MAX_SAFE_INTEGER,
      };
    },
  };
}
export type ApiTokensService = ReturnType<typeof createApiTokensService>;
