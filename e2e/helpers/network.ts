import type { Page } from 'playwright-core';

export interface NetworkProfile {
  /** Round-trip latency added to every request, ms. */
  latency: number;
  /** Bytes per second. */
  downloadThroughput: number;
  uploadThroughput: number;
}

/** Chrome DevTools' "Fast 3G" preset: 562.5 ms, 1.44 Mbps down, 675 kbps up. */
export const FAST_3G: NetworkProfile = {
  latency: 562.5,
  downloadThroughput: (1.44 * 1_000_000) / 8,
  uploadThroughput: (675 * 1_000) / 8,
};

/** Throttles one page's network through Chromium's own emulation (CDP Network.emulateNetworkConditions). */
export async function throttle(page: Page, profile: NetworkProfile): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile });
}
