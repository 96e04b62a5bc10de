import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT_PX } from '@release/contract';

const query = window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`);

function subscribe(listener: () => void): () => void {
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** True at 768 px wide or less (SPEC §9 mobile breakpoint). */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => query.matches);
}
