import type { ApiTokenRow } from '@release/contract';

export type TokenStatus = 'active' | 'expired' | 'revoked';

/** Revoked wins over expired: a revoked token stays refused whatever its expiry said. */
export function tokenStatus(
  row: Pick<ApiTokenRow, 'expireTime' | 'revokedTime'>,
  now: number = Date.now(),
): TokenStatus {
  if (row.revokedTime !== null) return 'revoked';
  if (row.expireTime !== null && row.expireTime <= now) return 'expired';
  return 'active';
}

/** Lists only know a token's first characters: `rst_AbCd…`. */
export function shownPrefix(prefix: string): string {
  return `${prefix}…`;
}

/** The expiry choices of 新建令牌, in days; null: never expires. */
export const TOKEN_EXPIRY_CHOICES = [30, 90, 365, null] as const;
export type TokenExpiryChoice = (typeof TOKEN_EXPIRY_CHOICES)[number];
export const DEFAULT_TOKEN_EXPIRY: TokenExpiryChoice = 90;

/** The usage line shown under the table; the token itself is never put on the page. */
export function cliUsageSample(origin: string): string {
  return `RELEASE_SERVER=${origin} RELEASE_TOKEN=<token> npx release-cli upload app.ipa --app <path>`;
}
