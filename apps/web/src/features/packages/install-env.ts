import type { NativePackageType } from '@release/contract';

/** In-app browsers that cannot install packages: Lark/Feishu, WeChat, DingTalk (SPEC §2 download page). */
export type InAppBrowser = 'feishu' | 'wechat' | 'dingtalk';

export function detectInAppBrowser(userAgent: string): InAppBrowser | null {
  if (/Lark|Feishu/i.test(userAgent)) return 'feishu';
  if (/MicroMessenger/i.test(userAgent)) return 'wechat';
  if (/DingTalk/i.test(userAgent)) return 'dingtalk';
  return null;
}

/**
 * HarmonyOS NEXT's browser (ArkWeb) says OpenHarmony and no Android; HarmonyOS 2–4 phones say Android (and run apks).
 * `Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile`
 */
const HARMONY_NEXT = /OpenHarmony|ArkWeb/i;

/** The visitor's own platform, to show its package first. iPadOS reports itself as a Mac with touch. */
export function detectDevicePlatform(userAgent: string, maxTouchPoints = 0): NativePackageType | null {
  if (HARMONY_NEXT.test(userAgent)) return 'harmony';
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios';
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return null;
}

/**
 * The tabs that suit this visitor, best first: an iPhone/iPad its iOS builds, an Android phone its apks, a Mac its Mac
 * builds and else the iOS ones (the same team's Apple builds); anything else no preference (the app's first platform).
 */
export function preferredPlatforms(userAgent: string, maxTouchPoints = 0): NativePackageType[] {
  const device = detectDevicePlatform(userAgent, maxTouchPoints);
  if (device) return [device];
  if (/Macintosh|Mac OS X/i.test(userAgent)) return ['mac', 'ios'];
  return [];
}

/** This browser's platform, by the same rules (the page's components share it). */
export function currentDevicePlatform(): NativePackageType | null {
  return detectDevicePlatform(navigator.userAgent, navigator.maxTouchPoints);
}

/**
 * The device a package must be installed on when this one cannot: an ipa only on an iPhone/iPad (itms-services),
 * an apk not on an iPhone/iPad. A computer may still download an apk (adb install), so it keeps 下载安装 there.
 */
export function installsElsewhere(type: NativePackageType, device: NativePackageType | null): 'ios' | 'android' | null {
  if (type === 'ios' && device !== 'ios') return 'ios';
  if (type === 'android' && device === 'ios') return 'android';
  return null;
}

/** /ios/:path and /android/:path preselect that platform; /package/:path lets the device decide. */
export function platformOfRoute(pathname: string): NativePackageType | null {
  if (pathname.startsWith('/ios/')) return 'ios';
  if (pathname.startsWith('/android/')) return 'android';
  return null;
}

/** The platform shown first: the first preference the app has builds for, else its first platform with a build. */
export function choosePlatform(
  available: readonly NativePackageType[],
  preferences: ReadonlyArray<NativePackageType | null>,
): NativePackageType | null {
  for (const wanted of preferences) if (wanted && available.includes(wanted)) return wanted;
  return available[0] ?? null;
}
