import { useSyncExternalStore } from 'react';

const CURRENT_APP_KEY = 'currentChooseAppId';
const listeners = new Set<() => void>();

function readCurrentAppId(): number | null {
  const raw = localStorage.getItem(CURRENT_APP_KEY);
  const id = raw === null ? Number.NaN : Number(raw);
  return Number.isInteger(id) && id > 0 ? id : null;
}

let snapshot = readCurrentAppId();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getCurrentAppId(): number | null {
  return snapshot;
}

/** The app the user is working on (SPEC §3 Session currentChooseAppId). */
export function setCurrentAppId(appId: number | null): void {
  if (appId === snapshot) return;
  if (appId === null) localStorage.removeItem(CURRENT_APP_KEY);
  else localStorage.setItem(CURRENT_APP_KEY, String(appId));
  snapshot = appId;
  for (const listener of listeners) listener();
}

export function useCurrentAppId(): number | null {
  return useSyncExternalStore(subscribe, getCurrentAppId);
}
