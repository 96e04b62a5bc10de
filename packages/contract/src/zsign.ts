import { z } from 'zod';
import { day } from './certificates.ts';
import { intFromQuery } from './common.ts';
import { appVersionRow } from './versions.ts';

/** SPEC §7: the web's call waits this long for `/api/zsign`. */
export const ZSIGN_TIMEOUT_MS = 60_000;
/** How long the server waits for the re-signing before answering with the job to poll (inside the 60 s). */
export const ZSIGN_SERVER_WAIT_MS = 50_000;

export const zsignBody = z.object({ certId: intFromQuery.min(1), appVersionId: intFromQuery.min(1) });
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
  chainIncomplete: (issuer: string) =>
    `证书的签发者「${issuer}」不是苹果的开发者中间证书，且证书没有证书链，无法重签名；请在证书管理中重新上传包含证书链的 .p12`,
  verifyFailed: '重签名结果未通过签名校验，未生成新版本，请联系管理员查看服务器日志',
  failed: '重签名多次尝试均未成功，未生成新版本，请稍后重试',
  retrying: '重签名中断，稍后将自动重试',
  note: (fromLabel: string, certName: string) => `由版本 ${fromLabel} 使用证书「${certName}」重签名`,
  success: (version: string) => `${version} 重签名成功`,
} as const;
