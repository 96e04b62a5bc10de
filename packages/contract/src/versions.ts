import { z } from 'zod';
import { shortChanges } from './version-changes.ts';
import { intFromQuery, pageQuery } from './common.ts';
import { nativePackageTypes, packageKinds } from './package-kinds.ts';

export const nativePackageType = z.enum(nativePackageTypes);

/** SPEC §3 Package version. */
export const appVersionRow = z.object({
  id: z.number(),
  appId: z.number(),
  indexNo: z.number(),
  nativePackageType,
  fileName: z.string(),
  cdnUrl: z.string(),
  appVersion: z.string().nullable(),
  build: z.string().nullable(),
  bundleId: z.string().nullable(),
  displayName: z.string().nullable(),
  iconUrl: z.string().nullable(),
  appSize: z.number(),
  description: z.string(),
  uploadBy: z.string().nullable(),
  updateTime: z.number(),
  createTime: z.number(),
  expireDate: z.number().nullable(),
  attachFiles: z.array(z.object({ fileName: z.string(), url: z.string() })),
  warnings: z.array(z.string()),
  /** What the inspector read (profile, signatures, SDK levels...). */
  metadata: z.record(z.string(), z.unknown()),
  /** 保留 (issue 20): retention never removes it. */
  pinned: z.boolean(),
  /** Signed for debugging only: installs on the profile's test devices alone (isDebugSigned; 调试证书). */
  debugSigned: z.boolean(),
});
export type AppVersionRow = z.infer<typeof appVersionRow>;

/**
 * POST /api/upload_app/direct's answer: the new version and the name of the app it went to, so that a client naming the
 * app by its download path needs no call to look the app up (issue 23).
 */
export const directUploadResult = appVersionRow.extend({ appName: z.string() });
export type DirectUploadResult = z.infer<typeof directUploadResult>;

export const appVersionListQuery = pageQuery.extend({
  appId: intFromQuery.min(1),
  startTime: intFromQuery.optional(),
  endTime: intFromQuery.optional(),
  uploadBy: z.string().trim().max(64).optional(),
  nativePackageType: nativePackageType.optional(),
});
export type AppVersionListQuery = z.infer<typeof appVersionListQuery>;

export const editVersionBody = z.object({
  id: intFromQuery.min(1),
  appId: intFromQuery.min(1),
  description: z.string().max(20_000),
});

export const simpleVersion = z.object({
  appVersionId: z.number(),
  indexNo: z.number(),
  appVersion: z.string().nullable(),
  build: z.string().nullable(),
});
export const simpleVersions = z.object({
  ipa: z.array(simpleVersion),
  apk: z.array(simpleVersion),
  zip: z.array(simpleVersion),
  hap: z.array(simpleVersion),
});

/** GET /api/app_version: the install page's data, behind the app's install password. */
export const installPageQuery = z.object({
  url: z.string().trim().min(1).max(64),
  password: z.string().max(32).optional(),
  /** One version to show first (its id); `packId` is accepted as an alias. */
  id: intFromQuery.min(1).optional(),
  packId: intFromQuery.min(1).optional(),
  /** Signed-in editors preview the page without the password. */
  preview: z.enum(['true', 'false', '1', '0']).optional(),
  /** This phone's UDID when it registered itself before: each version then says whether its profile lists it. */
  udid: z.string().trim().max(64).optional(),
});
export type InstallPageQuery = z.infer<typeof installPageQuery>;

export const installVersion = z.object({
  id: z.number(),
  indexNo: z.number(),
  nativePackageType,
  packageKind: z.enum(packageKinds),
  /** False for files no device installs itself (.aab): listed and downloadable, never offered as 安装. */
  installable: z.boolean(),
  fileName: z.string(),
  appVersion: z.string().nullable(),
  build: z.string().nullable(),
  displayName: z.string().nullable(),
  bundleId: z.string().nullable(),
  appSize: z.number(),
  description: z.string(),
  createTime: z.number(),
  expireDate: z.number().nullable(),
  iconUrl: z.string().nullable(),
  /** Signed, short-lived download of the package file. */
  downloadUrl: z.string(),
  /** iOS only: `itms-services://?action=download-manifest&url=…` (needs HTTPS to work on a device). */
  installUrl: z.string().nullable(),
  /** html packages only: a signed link that shows the page in the browser (sandboxed, its own opaque origin). */
  openUrl: z.string().nullable(),
  /** iOS profile type and provisioned device count, for "register this device" hints. */
  profileType: z.string().nullable(),
  /** Signed for debugging only: installs on the profile's test devices alone (isDebugSigned; 调试证书). */
  debugSigned: z.boolean(),
  /** Ad-hoc/development only, when the page was asked with `udid`: whether the profile lists that device. */
  deviceIncluded: z.boolean().nullable(),
  minimumOs: z.string().nullable(),
  attachFiles: z.array(z.object({ fileName: z.string(), url: z.string() })),
  /** The asked build only (`id` in the link): what the console knows of it, for the build's own page. */
  details: z.array(z.object({ label: z.string(), value: z.string() })).nullable(),
  /** The newest build of each platform: what changed since the build before it (本版本更新; issue 19). */
  changes: shortChanges.nullable().optional(),
  /**
   * HarmonyOS: each module of the build (entry first), downloadable on its own through a signed link; empty for
   * other kinds.
   */
  modules: z.array(z.object({ name: z.string(), type: z.string(), fileName: z.string(), url: z.string() })),
  /** A debug build's devices (its profile's UDIDs); null when the build has no such list. */
  devices: z.array(z.string()).nullable(),
  /** A debug HarmonyOS build: the command that installs the downloaded modules on a connected device. */
  hdcCommand: z.string().nullable(),
  /** Why the build has no install link where one was expected (an enterprise build without a signed manifest …). */
  installHint: z.string().nullable(),
});
export type InstallDetail = { label: string; value: string };
export type InstallVersion = z.infer<typeof installVersion>;

export const installPage = z.object({
  app: z.object({
    appName: z.string(),
    appType: z.string(),
    appIcon: z.string().nullable(),
    description: z.string(),
    path: z.string(),
  }),
  /** Newest first: the recent ones, plus the latest installable one of each platform when it is older. */
  versions: z.array(installVersion),
  /** The link asked for a version (id or packId) that does not exist or is another app's: the latest are shown instead. */
  askedVersionMissing: z.boolean(),
  /** Sent back as the `app-version-token` header so the password is asked once per 7 days (until the install password changes). */
  token: z.string(),
  /** Whether this site is served over HTTPS; iOS refuses OTA installs otherwise. */
  secure: z.boolean(),
  /** How the page opened: the install password (or its remembered pass), the visitor's sign-in (a member of the app, or an admin), or the app's password-free public link. */
  access: z.enum(['password', 'member', 'public']),
  /** Whether the app takes tester feedback (its setting; on by default): the page then offers 反馈问题. */
  feedback: z.boolean(),
});
export type InstallPage = z.infer<typeof installPage>;

/** GET /api/app_version/app: what the password gate shows before the password (name and icon only). */
export const installAppBrief = z.object({ appName: z.string(), appIcon: z.string().nullable(), path: z.string() });
export type InstallAppBrief = z.infer<typeof installAppBrief>;
