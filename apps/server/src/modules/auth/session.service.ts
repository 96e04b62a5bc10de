import { SESSION_LIFETIME_MS } from '@release/contract';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import type { SessionRepository, SessionUserRow } from './session.repository.ts';

export type AuthUser = SessionUserRow & { isAdmin: boolean };

/** Server-side sessions: the token is handed out once, only its SHA-256 is stored. */
export function createSessionService(deps: { sessions: SessionRepository; clock: Clock }) {
  const { sessions, clock } = deps;
  return {
    async open(userId: number, meta: { ip: string | null; userAgent: string | null }) {
      const token = randomToken();
      const createTime = clock.now();
      await sessions.insert({ tokenHash: sha256Hex(token), userId, createTime, expireTime: createTime + SESSION_LIFETIME_MS, ...meta });
      return { token, tokenTime: createTime };
    },

    /** The signed-in user of a token, or null when unknown, revoked or older than 7 days. */
    async resolve(token: string): Promise<AuthUser | null> {
      if (!token || token.length > 256) return null;
      const row = await sessions.findUserByTokenHash(sha256Hex(token));
      if (!row || row.expireTime <= clock.now()) return null;
      return { ...row, isAdmin: row.roleLevel === 100 };
    },

    async revoke(token: string) {
      await sessions.deleteByTokenHash(sha256Hex(token));
    },

    /** Ends every session of a user, except the one of `keepToken` when given. */
    async revokeAllOf(userId: number, keepToken?: string | null) {
      await sessions.deleteByUser(userId, keepToken ? sha256Hex(keepToken) : undefined);
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
