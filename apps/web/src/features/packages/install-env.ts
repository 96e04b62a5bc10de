import type { NativePackageType } from '@release/contract';

/** In-app browsers that cannot install packages: Lark/Feishu, WeChat, DingTalk (SPEC §2 download page). */
export type InAppBrowser = 'feishu' | 'wechat' | 'dingtalk';

export function detectInAppBrowser(userAgent: string): InAppBrowser | null {
  if (/Lark|Feishu/i.test(userAgent)) return 'feishu';
  if (/MicroMessenger/i.test(userAgent)) return 'wechat';
  if (/DingTalk/i.test(userAgent)) return 'dingtalk';
  return null;
}

/** The visitor's own platform, to show its package first. iPadOS reports itself as a Mac with touch. */
export function detectDevicePlatform(userAgent: string, maxTouchPoints = 0): NativePackageType | null {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios';
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return null;
}

/** /ios/:path and /android/:path preselect that platform; /package/:path lets the device decide. */
export function platformOfRoute(pathname: string): NativePackageType | null {
  if (pathname.startsWith('/ios/')) return 'ios';
  if (pathname.startsWith('/android/')) return 'android';
  return null;
}

/** The platform shown first: the asked version's, the route's, the device's, else the newest package's. */
export function choosePlatform(
  available: readonly NativePackageType[],
  preferences: ReadonlyArray<NativePackageType | null>,
): NativePackageType | null {
  for (const wanted of preferences) if (wanted && available.includes(wanted)) return wanted;
  return available[0] ?? null;
}
