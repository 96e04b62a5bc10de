import { z } from 'zod';
import { intFromQuery } from './common.ts';

/** How long a self-service registration link (and its profile's challenge) stays usable. */
export const DEVICE_ENROLL_TTL_MS = 30 * 60 * 1000;
/** Largest device answer the Profile Service callback reads (a signed plist is a few KB). */
export const DEVICE_ENROLL_BODY_MAX_BYTES = 64 * 1024;
/** Registrations an install page may start per app and hour (the page is public behind its password). */
export const DEVICE_ENROLL_PER_APP_HOUR = 30;
/** The web page the device is sent to after registering (no `udid` in it: that path is admin-only). */
export const DEVICE_ENROLL_RESULT_PATH = '/device-enroll/result';

export const deviceEnrollOutcomes = ['registered', 'known'] as const;
export type DeviceEnrollOutcome = (typeof deviceEnrollOutcomes)[number];

/** POST /api/device_enroll/install: a registration started from an install page (send the `app-version-token` header). */
export const installEnrollBody = z.object({
  url: z.string().trim().min(1).max(64),
  versionId: intFromQuery.min(1).optional(),
});
export type InstallEnrollBody = z.infer<typeof installEnrollBody>;

/** The profile download link: open it in Safari on the device. */
export const deviceEnrollLink = z.object({ profileUrl: z.string(), expireTime: z.number() });
export type DeviceEnrollLink = z.infer<typeof deviceEnrollLink>;

export const deviceEnrollProfileQuery = z.object({ c: z.string().min(16).max(128) });
export const deviceEnrollResultQuery = z.object({ id: intFromQuery.min(1), sig: z.string().min(1).max(128) });

/** GET /api/device_enroll/result: what the result page shows. */
export const deviceEnrollResult = z.object({
  udid: z.string(),
  product: z.string().nullable(),
  osVersion: z.string().nullable(),
  serial: z.string().nullable(),
  outcome: z.enum(deviceEnrollOutcomes),
  /** Set when the registration was started from an install page: where to go back to. */
  app: z.object({ appName: z.string(), path: z.string() }).nullable(),
  versionId: z.number().nullable(),
});
export type DeviceEnrollResult = z.infer<typeof deviceEnrollResult>;

export const DeviceEnrollMessages = {
  linkMissing: '注册链接无效，请返回页面重新获取',
  linkExpired: '注册链接已过期，请返回页面重新获取',
  linkUsed: '此注册链接已使用，请返回页面重新获取',
  contentType: '请求类型错误：应为设备发送的 application/pkcs7-signature',
  bodyUnreadable: '无法读取设备信息：内容不是有效的签名描述文件应答',
  udidMissing: '设备信息中没有有效的 UDID',
  challengeMissing: '设备信息中缺少注册凭证',
  tooManyTries: '注册此设备的请求过多，请稍后再试',
  resultMissing: '注册结果不存在或链接无效',
  notIos: '仅 iOS 版本可以注册设备',
} as const;
