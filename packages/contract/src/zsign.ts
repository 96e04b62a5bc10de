import { z } from 'zod';
import { day } from './certificates.ts';
import { intFromQuery } from './common.ts';
import { appVersionRow } from './versions.ts';

/** SPEC §7: the web's call waits this long for `/api/zsign`. */
export const ZSIGN_TIMEOUT_MS = 60_000;
/** How long the server waits for the re-signing before answering with the job to poll (inside the 60 s). */
export const ZSIGN_SERVER_WAIT_MS = 50_000;

export const RESIGN_BUNDLE_ID_PATTERN = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
export const RESIGN_VERSION_PATTERN = /^\d{1,9}(\.\d{1,9}){0,2}$/;

export const ResignOptionMessages = {
  bundleId: 'Bundle ID 只能包含字母、数字、连字符（-）和点，至少两段，最多 155 个字符，例如 com.example.app',
  displayName: '显示名称不能为空，最多 64 个字符',
  version: '版本号须为 1 至 3 段数字，用点分隔，例如 2.1.0',
  build: '构建号须为 1 至 3 段数字，用点分隔，例如 100 或 1.0.7',
  entitlements: 'Entitlements 须为 plist（XML）格式的字典，最多 64 KB',
} as const;

/** Given entitlements (plist XML) are at most this many characters. */
export const RESIGN_ENTITLEMENTS_MAX = 64 * 1024;

/** What a re-signing changes besides the signature (each optional; extensions follow the new bundle id's prefix). */
export const resignOptions = z
  .object({
    bundleId: z
      .string()
      .trim()
      .max(155, ResignOptionMessages.bundleId)
      .regex(RESIGN_BUNDLE_ID_PATTERN, ResignOptionMessages.bundleId)
      .optional(),
    displayName: z
      .string()
      .trim()
      .min(1, ResignOptionMessages.displayName)
      .max(64, ResignOptionMessages.displayName)
      .refine((value) => !/[\u0000-\u001f]/.test(value), ResignOptionMessages.displayName)
      .optional(),
    version: z.string().trim().regex(RESIGN_VERSION_PATTERN, ResignOptionMessages.version).optional(),
    build: z.string().trim().regex(RESIGN_VERSION_PATTERN, ResignOptionMessages.build).optional(),
    removeWatchApp: z.boolean().optional(),
    removeExtensions: z.boolean().optional(),
    removeSupportedDevices: z.boolean().optional(),
    /** SHA-256 code directories only for bundles whose minimum OS is iOS 11 or later, SHA-1 kept (or added) below. */
    hashesByMinimumOs: z.boolean().optional(),
    /** The main app's entitlements, given instead of taken from the profile (plist XML; each must be the profile's). */
    entitlements: z
      .string()
      .trim()
      .min(1, ResignOptionMessages.entitlements)
      .max(RESIGN_ENTITLEMENTS_MAX, ResignOptionMessages.entitlements)
      .optional(),
  })
  .strict();
export type ResignOptionsBody = z.infer<typeof resignOptions>;

export const zsignBody = z.object({
  certId: intFromQuery.min(1),
  appVersionId: intFromQuery.min(1),
  options: resignOptions.optional(),
});
export type ZsignBody = z.infer<typeof zsignBody>;

export const zsignJobQuery = z.object({ id: intFromQuery.min(1) });

export const resignStages = ['queued', 'read', 'sign', 'write', 'verify', 'store', 'done'] as const;
export type ResignStage = (typeof resignStages)[number];

export const resignStageLabels: Record<ResignStage, string> = {
  queued: '排队中',
  read: '读取安装包',
  sign: '签名',
  write: '写入新安装包',
  verify: '校验签名',
  store: '保存新版本',
  done: '完成',
};

/** A re-signing as `/api/zsign` and `/api/zsign/job` answer it: done with the new version, or the job to poll. */
export const zsignJob = z.object({
  id: z.number(),
  appId: z.number(),
  appVersionId: z.number(),
  certId: z.number(),
  status: z.enum(['pending', 'running', 'done', 'failed']),
  /** 0–100. */
  progress: z.number(),
  stage: z.enum(resignStages),
  /** Bytes of the current stage done and in all (0 when the stage is not counted in bytes). */
  bytesDone: z.number(),
  bytesTotal: z.number(),
  /** Why it failed, and what to do (Chinese). */
  error: z.string().nullable(),
  /** The new version once done. */
  version: appVersionRow.nullable(),
});
export type ZsignJob = z.infer<typeof zsignJob>;

/** A certificate as the re-sign modal offers it (editors may re-sign; the certificate list itself is for admins). */
export const zsignCertificate = z.object({
  id: z.number(),
  name: z.string(),
  teamId: z.string().nullable(),
  mainBundleId: z.string(),
  expireTime: z.number(),
  /** The app ids of its profiles (`TEAM.com.acme.app`, `TEAM.*`). */
  appIds: z.array(z.string()),
});
export type ZsignCertificate = z.infer<typeof zsignCertificate>;

export const ZsignMessages = {
  onlyIpa: '只有 iOS 安装包（.ipa）可以重签名',
  versionNotFound: '版本不存在',
  jobNotFound: '重签名任务不存在',
  encrypted: '该安装包来自 App Store，可执行文件已加密，无法重签名；请使用 Xcode 导出的开发、Ad Hoc 或企业包',
  certificateExpired: (name: string, validTo: number) =>
    `证书「${name}」已过期（有效期至 ${day(validTo)}），请在证书管理中上传有效的证书后重试`,
  profileExpired: (name: string, expires: number) =>
    `描述文件「${name}」已过期（${day(expires)}），请在证书管理中为该证书上传新的描述文件后重试`,
  noProfile: (bundleId: string) =>
    `证书的描述文件不包含 ${bundleId}，请在证书管理中为该证书上传包含此 Bundle ID 的描述文件后重试`,
  badPackage: (detail: string) => `安装包无法重签名：${detail}`,
  entitlementsOutsideProfile: (keys: string) => `给定的 entitlements 超出描述文件允许的范围：${keys}`,
  chainIncomplete: (issuer: string) =>
    `证书的签发者「${issuer}」不是苹果的开发者中间证书，且证书没有证书链，无法重签名；请在证书管理中重新上传包含证书链的 .p12`,
  /** The run's stored options are damaged: signing without them would make another package than asked. */
  optionsUnreadable: '重签名任务的选项已损坏，未生成新版本，请重新发起重签名',
  verifyFailed: '重签名结果未通过签名校验，未生成新版本，请联系管理员查看服务器日志',
  failed: '重签名多次尝试均未成功，未生成新版本，请稍后重试',
  retrying: '重签名中断，稍后将自动重试',
  note: (fromLabel: string, certName: string) => `由版本 ${fromLabel} 使用证书「${certName}」重签名`,
  /** Appended to the note, one per change: `；Bundle ID：com.a → com.b；移除 Watch 应用`. */
  changes: (changes: string[]) => (changes.length > 0 ? `；${changes.join('；')}` : ''),
  success: (version: string) => `${version} 重签名成功`,
} as const;
