import { describe, expect, it } from 'vitest';
import {
  choosePlatform,
  detectDevicePlatform,
  detectInAppBrowser,
  installsElsewhere,
  platformOfRoute,
  preferredPlatforms,
} from './install-env.ts';

const iphoneFeishu =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Lark/7.14.5 LarkLocale/zh_CN';
const androidWechat =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36 MicroMessenger/8.0.47';
const dingtalk =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 AliApp(DingTalk/7.0.50)';
const safari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1';
const harmonyNext =
  'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile';
const harmony4 =
  'Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0 Mobile Safari/537.36';
const desktop = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/126 Safari/537.36';

describe('install page environment', () => {
  it('recognises the in-app browsers of Feishu, WeChat and DingTalk', () => {
    expect(detectInAppBrowser(iphoneFeishu)).toBe('feishu');
    expect(detectInAppBrowser('Mozilla/5.0 Feishu/6.0')).toBe('feishu');
    expect(detectInAppBrowser(androidWechat)).toBe('wechat');
    expect(detectInAppBrowser(dingtalk)).toBe('dingtalk');
    expect(detectInAppBrowser(safari)).toBeNull();
    expect(detectInAppBrowser(desktop)).toBeNull();
  });

  it('detects the device platform, iPadOS included', () => {
    expect(detectDevicePlatform(safari)).toBe('ios');
    expect(detectDevicePlatform(androidWechat)).toBe('android');
    expect(detectDevicePlatform(desktop)).toBeNull();
    expect(detectDevicePlatform(desktop, 5)).toBe('ios');
    // HarmonyOS NEXT installs .hap builds; HarmonyOS 4 and older run apks.
    expect(detectDevicePlatform(harmonyNext)).toBe('harmony');
    expect(detectDevicePlatform(harmony4)).toBe('android');
    expect(preferredPlatforms(harmonyNext)).toEqual(['harmony']);
  });

  it('prefers the Mac tab on a Mac, then iOS; nothing on other computers', () => {
    expect(preferredPlatforms(desktop)).toEqual(['mac', 'ios']);
    expect(preferredPlatforms(desktop, 5)).toEqual(['ios']);
    expect(preferredPlatforms(safari)).toEqual(['ios']);
    expect(preferredPlatforms(androidWechat)).toEqual(['android']);
    expect(preferredPlatforms('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126')).toEqual([]);
    expect(choosePlatform(['ios', 'web', 'mac'], [null, null, ...preferredPlatforms(desktop)])).toBe('mac');
    expect(choosePlatform(['ios', 'web'], [null, null, ...preferredPlatforms(desktop)])).toBe('ios');
    expect(choosePlatform(['android', 'web'], [null, null, ...preferredPlatforms(desktop)])).toBe('android');
  });

  it('sends an ipa to an iPhone/iPad from anywhere else, and an apk away from an iPhone/iPad only', () => {
    expect(installsElsewhere('ios', 'ios')).toBeNull();
    expect(installsElsewhere('ios', null)).toBe('ios');
    expect(installsElsewhere('ios', 'android')).toBe('ios');
    expect(installsElsewhere('android', 'android')).toBeNull();
    expect(installsElsewhere('android', null)).toBeNull();
    expect(installsElsewhere('android', 'ios')).toBe('android');
    expect(installsElsewhere('web', 'ios')).toBeNull();
    expect(installsElsewhere('mac', null)).toBeNull();
  });

  it('prefers the route platform, then the device, then the newest package', () => {
    expect(platformOfRoute('/ios/abcd')).toBe('ios');
    expect(platformOfRoute('/android/abcd')).toBe('android');
    expect(platformOfRoute('/package/abcd')).toBeNull();
    expect(choosePlatform(['android', 'ios'], [null, 'ios', 'android'])).toBe('ios');
    expect(choosePlatform(['web'], ['ios', 'android'])).toBe('web');
    expect(choosePlatform([], ['ios'])).toBeNull();
  });
});
