import { useSyncExternalStore } from 'react';
import { isAdminLevel, isSessionValid, type LoginResult } from '@release/contract';

/** The signed-in user as kept in localStorage (SPEC §3 Session). */
export interface Session {
  username: string;
  token: string;
  tokenTime: number;
  roleLevel: number;
  userId: number;
  privateUrl: string;
}

const SESSION_KEYS = ['username', 'token', 'tokenTime', 'roleLevel', 'userId', 'privateUrl'] as const;

function readNumber(key: string): number {
  const value = Number(localStorage.getItem(key) ?? '');
  return Number.isFinite(value) ? value : 0;
}

function readFromStorage(): Session {
  return {
    username: localStorage.getItem('username') ?? '',
    token: localStorage.getItem('token') ?? '',
    tokenTime: readNumber('tokenTime'),
    roleLevel: readNumber('roleLevel'),
    userId: readNumber('userId'),
    privateUrl: localStorage.getItem('privateUrl') ?? '',
  };
}

let snapshot = readFromStorage();
const listeners = new Set<() => void>();

function emit(): void {
  snapshot = readFromStorage();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab logging in or out changes this tab's session too.
window.addEventListener('storage', (event) => {
  if (event.key === null || (SESSION_KEYS as readonly string[]).includes(event.key)) emit();
});

export function readSession(): Session {
  return snapshot;
}

export function saveLoginSession(result: LoginResult): void {
  localStorage.setItem('username', result.username);
  localStorage.setItem('token', result.token);
  localStorage.setItem('tokenTime', String(result.tokenTime));
  localStorage.setItem('roleLevel', String(result.roleLevel));
  localStorage.setItem('userId', String(result.userId));
  localStorage.setItem('privateUrl', result.url ?? '');
  emit();
}

/** Applies what the server says about the current user (GET /api/user/me). */
export function updateSessionUser(user: { username: string; roleLevel: number }): void {
  if (user.username === snapshot.username && user.roleLevel === snapshot.roleLevel) return;
  localStorage.setItem('username', user.username);
  localStorage.setItem('roleLevel', String(user.roleLevel));
  emit();
}

export function clearSession(): void {
  for (const key of SESSION_KEYS) localStorage.removeItem(key);
  emit();
}

export function isSessionUsable(session: Session, now: number = Date.now()): boolean {
  return isSessionValid(session.token, session.tokenTime, now);
}

export function useSession(): Session {
  return useSyncExternalStore(subscribe, readSession);
}

export function useIsAdmin(): boolean {
  return isAdminLevel(useSession().roleLevel);
}
