import { ADMIN_ROLE_LEVEL, SESSION_LIFETIME_MS } from './constants.ts';

export function isAdminLevel(roleLevel: number | null | undefined): boolean {
  return roleLevel === ADMIN_ROLE_LEVEL;
}

/** SPEC §4: a session older than 7 days, or without a token, is invalid. */
export function isSessionValid(
  token: string | null | undefined,
  tokenTime: number | null | undefined,
  now: number,
): boolean {
  if (!token || !tokenTime) return false;
  return now - tokenTime < SESSION_LIFETIME_MS;
}

/** Masks all but the last four digits of a phone number. */
export function maskPhone(phone: string): string {
  return phone.length <= 4 ? phone : `${'*'.repeat(phone.length - 4)}${phone.slice(-4)}`;
}
