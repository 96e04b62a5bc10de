import { API_TOKEN_PREFIX, SESSION_LIFETIME_MS } from '@release/contract';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import type { SessionRepository, SessionUserRow } from './session.repository.ts';

export type AuthUser = SessionUserRow & {
  isAdmin: boolean;
  /** Signed in with a per-user API token (CLI, CI) rather than a session. */
  viaApiToken?: boolean;
};

/** Looks up `rst_` API tokens (modules/api-tokens): null when unknown, revoked or expired. */
export interface ApiTokenResolver {
  resolve(token: string): Promise<SessionUserRow | null>;
}

/** Server-side sessions: the token is handed out once, only its SHA-256 is stored. */
export function createSessionService(deps: {
  sessions: SessionRepository;
  clock: Clock;
  apiTokens?: ApiTokenResolver;
}) {
  const { sessions, clock } = deps;
  return {
    async open(userId: number, meta: { ip: string | null; userAgent: string | null }) {
      const token = randomToken();
      const createTime = clock.now();
      await sessions.insert({
        tokenHash: sha256Hex(token),
        userId,
        createTime,
        expireTime: createTime + SESSION_LIFETIME_MS,
        ...meta,
      });
      return { token, tokenTime: createTime };
    },

    /** The signed-in user of a session or API token, or null when unknown, revoked or expired. */
    async resolve(token: string): Promise<AuthUser | null> {
      if (!token || token.length > 256) return null;
      const row = await sessions.findUserByTokenHash(sha256Hex(token));
      if (row) return row.expireTime > clock.now() ? { ...row, isAdmin: row.roleLevel === 100 } : null;
      if (!deps.apiTokens || !token.startsWith(API_TOKEN_PREFIX)) return null;
      const user = await deps.apiTokens.resolve(token);
      return user ? { ...user, isAdmin: user.roleLevel === 100, viaApiToken: true } : null;
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
