import { useEffect } from 'react';

const REMOVED = 'release:version-removed';

/** Tells the open page that a build was removed (the workflow lists reload, so its items show 已删除). */
export function announceVersionRemoved(appId: number): void {
  window.dispatchEvent(new CustomEvent(REMOVED, { detail: { appId } }));
}

/** Calls `onRemoved` when a build of this app is removed on this page. */
export function useVersionRemoved(appId: number, onRemoved: () => void): void {
  useEffect(() => {
    const listener = (event: Event) => {
      if ((event as CustomEvent<{ appId: number }>).detail.appId === appId) onRemoved();
    };
    window.addEventListener(REMOVED, listener);
    return () => window.removeEventListener(REMOVED, listener);
  }, [appId, onRemoved]);
}
