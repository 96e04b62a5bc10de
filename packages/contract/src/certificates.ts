import { z } from 'zod';
import { idParam } from './common.ts';

/** Largest .p12 or provisioning profile accepted by `/api/cert_upload` (real ones are 3–20 KB). */
export const CERT_FILE_MAX_BYTES = 1024 * 1024;
/** Profiles one certificate may carry (the main app plus its extensions and watch apps). */
export const CERT_MAX_PROFILES = 20;
/** A certificate or profile ending within this many days is shown as 即将过期. */
export const CERT_EXPIRING_DAYS = 30;

export const profileTypes = ['development', 'ad-hoc', 'enterprise', 'app-store', 'developer-id'] as const;
export type CertProfileType = (typeof profileTypes)[number];

export const profileTypeLabels: Record<CertProfileType, string> = {
  development: '开发 (Development)',
  'ad-hoc': '内测 (Ad Hoc)',
  enterprise: '企业 (In House)',
  'app-store': '商店 (App Store)',
  'developer-id': 'Developer ID',
};

export const certificateProfile = z.object({
  id: z.number(),
  name: z.string(),
  uuid: z.string(),
  type: z.enum(profileTypes),
  teamId: z.string().nullable(),
  /** `application-identifier` of the profile, e.g. `ABCDE12345.com.acme.app` or `ABCDE12345.*`. */
  appId: z.string(),
  /** The app id without its team prefix (`com.acme.app`, `*`). */
  bundleId: z.string(),
  devices: z.array(z.string()),
  provisionsAllDevices: z.boolean(),
  expireTime: z.number(),
  /** Whether the profile's DeveloperCertificates include this certificate (always true once stored). */
  listsCertificate: z.boolean(),
});
export type CertificateProfile = z.infer<typeof certificateProfile>;

/** One uploaded signing identity (SPEC §3 Certificate: id, groupId, mainBundleId) with what was read from it. */
export const certificateRow = z.object({
  id: z.number(),
  /** The Apple team the certificate belongs to (its subject OU). */
  groupId: z.string(),
  /** The bundle id of the main app profile (the one the others extend), `*` for a wildcard profile. */
  mainBundleId: z.string(),
  name: z.string(),
  subject: z.string(),
  teamId: z.string().nullable(),
  teamName: z.string().nullable(),
  serialNumber: z.string(),
  sha1: z.string(),
  validFrom: z.number(),
  validTo: z.number(),
  /** The earliest of the certificate's and its profiles' expiry. */
  expireTime: z.number(),
  createTime: z.number(),
  uploadBy: z.string().nullable(),
  profiles: z.array(certificateProfile),
});
export type CertificateRow = z.infer<typeof certificateRow>;

export const certificateIdQuery = z.object({ id: idParam });

export type CertificateExpiry = 'expired' | 'expiring' | 'valid';

/** SPEC §4 package expiry rule, applied to certificates: expired when the expiry is not later than now. */
export function certificateExpiry(expireTime: number, now: number): CertificateExpiry {
  if (expireTime <= now) return 'expired';
  return expireTime - now <= CERT_EXPIRING_DAYS * 24 * 60 * 60 * 1000 ? 'expiring' : 'valid';
}

/** YYYY-MM-DD (UTC) of a time, as messages about validity show it. */
export const day = (time: number) => new Date(time).toISOString().slice(0, 10);

export const CertMessages = {
  notMultipart: '请使用 multipart/form-data 上传证书',
  p12Missing: '请上传 .p12 证书文件',
  p12Twice: '一次只能上传一个 .p12 证书',
  passwordMissing: '请输入证书密码',
  profilesMissing: '请至少上传一个描述文件（.mobileprovision）',
  tooManyProfiles: `描述文件不能超过 ${CERT_MAX_PROFILES} 个`,
  fileTooLarge: `证书或描述文件不能超过 ${CERT_FILE_MAX_BYTES / 1024 / 1024} MB`,
  notP12: '不是有效的 .p12 证书文件',
  wrongPassword: '证书密码错误',
  noPrivateKey: '.p12 中没有私钥，请从钥匙串导出时同时选中证书和私钥',
  noCertificate: '.p12 中没有证书',
  keyMismatch: '.p12 中的私钥与证书不匹配',
  unsupportedKey: '暂不支持该私钥类型，请使用 RSA 私钥的签名证书',
  p12TooCostly: '.p12 的密钥迭代次数过多，无法读取，请从钥匙串或 OpenSSL 重新导出',
  certificateExpired: (validTo: number) => `证书已过期（有效期至 ${day(validTo)}），请上传有效的证书`,
  certificateNotYetValid: (validFrom: number) => `证书尚未生效（${day(validFrom)} 起生效）`,
  profileUnreadable: (file: string) => `描述文件「${file}」无法解析，请上传 .mobileprovision 文件`,
  profileUnsigned: (file: string) => `描述文件「${file}」没有苹果签名，无法用于重签名`,
  profileNotIos: (name: string) => `描述文件「${name}」不是 iOS 描述文件`,
  profileExpired: (name: string, expires: number) => `描述文件「${name}」已过期（${day(expires)}）`,
  profileMismatch: (name: string) => `描述文件「${name}」不包含该证书，请上传与证书匹配的描述文件`,
  profileTwice: (name: string) => `描述文件「${name}」重复上传`,
  certificateExists: '该证书已上传，如需更新描述文件请先删除原证书',
  chainIncomplete: (issuer: string) =>
    `证书的签发者「${issuer}」不是苹果的开发者中间证书，.p12 中也没有证书链，签名后设备无法验证；请从钥匙串导出时一并导出签发者证书，或使用苹果签发的证书`,
  certificateNotFound: '证书不存在',
} as const;
