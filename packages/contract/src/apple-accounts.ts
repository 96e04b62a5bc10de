import { z } from 'zod';
import { certificateProfile } from './certificates.ts';
import { idParam, intFromQuery } from './common.ts';
import { zsignJob } from './zsign.ts';

/** App Store Connect API keys (issuer id, key id, .p8) and what was read from Apple with them. */
export const APPLE_KEY_ID_PATTERN = /^[A-Z0-9]{10}$/;
export const APPLE_ISSUER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A .p8 is about 250 bytes; anything far larger is not one. */
export const APPLE_P8_MAX_LENGTH = 4096;

export const appleProfileTypes = ['development', 'ad-hoc'] as const;
export type AppleProfileType = (typeof appleProfileTypes)[number];

export const appleDeviceRow = z.object({
  appleId: z.string(),
  udid: z.string(),
  name: z.string(),
  platform: z.string(),
  deviceClass: z.string(),
  status: z.string(),
  model: z.string().nullable(),
  /** The row of the local device list with this UDID (null when not there). */
  localDeviceId: z.number().nullable(),
});
export type AppleDeviceRow = z.infer<typeof appleDeviceRow>;

export const appleCertificateRow = z.object({
  appleId: z.string(),
  name: z.string(),
  certificateType: z.string(),
  displayName: z.string(),
  serialNumber: z.string(),
  expireTime: z.number(),
  /** The uploaded certificate (/api/cert_list) that is this one (same SHA-1), if any. */
  localCertificateId: z.number().nullable(),
});
export type AppleCertificateRow = z.infer<typeof appleCertificateRow>;

export const appleBundleIdRow = z.object({
  appleId: z.string(),
  identifier: z.string(),
  name: z.string(),
  platform: z.string(),
});
export type AppleBundleIdRow = z.infer<typeof appleBundleIdRow>;

export const appleSyncResult = z.object({
  devices: z.number(),
  certificates: z.number(),
  bundleIds: z.number(),
  /** Devices found at Apple that were not in the local device list and were added to it. */
  newLocalDevices: z.number(),
});
export type AppleSyncResult = z.infer<typeof appleSyncResult>;

/** An account as listed: the key itself is never returned. */
export const appleAccountRow = z.object({
  id: z.number(),
  name: z.string(),
  issuerId: z.string(),
  keyId: z.string(),
  teamId: z.string().nullable(),
  remark: z.string(),
  createTime: z.number(),
  updateTime: z.number(),
  createBy: z.string().nullable(),
  lastSyncTime: z.number().nullable(),
  lastSync: appleSyncResult.nullable(),
  appIds: z.array(z.number()),
  certificateIds: z.array(z.number()),
  devices: z.array(appleDeviceRow),
  certificates: z.array(appleCertificateRow),
  bundleIds: z.array(appleBundleIdRow),
  /** Local iOS devices not registered with this account. */
  unregisteredDevices: z.array(z.object({ id: z.number(), udid: z.string(), deviceName: z.string() })),
});
export type AppleAccountRow = z.infer<typeof appleAccountRow>;

const name = z.string().trim().min(1, '请输入账号名称').max(64, '账号名称不能超过64个字符');
const issuerId = z
  .string()
  .trim()
  .regex(APPLE_ISSUER_ID_PATTERN, 'Issuer ID 格式不正确（应为 UUID，如 57246542-96fe-1a63-e053-0824d011072a）');
const keyId = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.string().regex(APPLE_KEY_ID_PATTERN, '密钥 ID 格式不正确（应为 10 位字母或数字）'));
const privateKey = z.string().trim().min(1, '请上传 .p8 私钥文件').max(APPLE_P8_MAX_LENGTH, '.p8 私钥文件过大');
const remark = z.string().trim().max(200, '备注不能超过200个字符');

export const addAppleAccountBody = z.object({ name, issuerId, keyId, privateKey, remark: remark.optional() });
export type AddAppleAccountBody = z.input<typeof addAppleAccountBody>;

/** Edits an account; without `privateKey` the stored key stays. */
export const updateAppleAccountBody = z.object({
  id: intFromQuery.min(1),
  name,
  issuerId,
  keyId,
  privateKey: privateKey.optional(),
  remark: remark.optional(),
});
export type UpdateAppleAccountBody = z.input<typeof updateAppleAccountBody>;

export const bindAppleAccountBody = z.object({
  id: intFromQuery.min(1),
  appIds: z.array(intFromQuery.min(1)).max(1000).default([]),
  certificateIds: z.array(intFromQuery.min(1)).max(1000).default([]),
});
export type BindAppleAccountBody = z.input<typeof bindAppleAccountBody>;

export const appleAccountIdQuery = z.object({ id: idParam });
export const appleAccountIdBody = z.object({ id: intFromQuery.min(1) });

export const registerAppleDevicesBody = z.object({
  id: intFromQuery.min(1),
  /** Local device ids; all local iOS devices not yet at Apple when absent. */
  deviceIds: z.array(intFromQuery.min(1)).max(1000).optional(),
});
export type RegisterAppleDevicesBody = z.input<typeof registerAppleDevicesBody>;

export const registerAppleDevicesResult = z.object({
  registered: z.array(z.object({ udid: z.string(), deviceName: z.string() })),
  failed: z.array(z.object({ udid: z.string(), deviceName: z.string(), msg: z.string() })),
});
export type RegisterAppleDevicesResult = z.infer<typeof registerAppleDevicesResult>;

export const regenerateAppleProfileBody = z.object({
  id: intFromQuery.min(1),
  /** The bundle identifier, e.g. com.acme.app. */
  bundleId: z.string().trim().min(1, '请选择 Bundle ID').max(255),
  profileType: z.enum(appleProfileTypes).default('ad-hoc'),
  /** The uploaded certificate to sign with; the account's matching one when absent. */
  certificateId: intFromQuery.min(1).optional(),
});
export type RegenerateAppleProfileBody = z.input<typeof regenerateAppleProfileBody>;

export const regenerateAppleProfileResult = z.object({ certificateId: z.number(), profile: certificateProfile });
export type RegenerateAppleProfileResult = z.infer<typeof regenerateAppleProfileResult>;

/** One button: register a local device at Apple, regenerate the build's profile with it, re-sign the build. */
export const addDeviceToBuildBody = z.object({ appVersionId: intFromQuery.min(1), deviceId: intFromQuery.min(1) });
export type AddDeviceToBuildBody = z.input<typeof addDeviceToBuildBody>;
export const addDeviceToBuildResult = z.object({
  accountId: z.number(),
  certificateId: z.number(),
  profile: certificateProfile,
  job: zsignJob,
});
export type AddDeviceToBuildResult = z.infer<typeof addDeviceToBuildResult>;

export const AppleAccountMessages = {
  accountNotFound: 'Apple 账号不存在',
  keyIdExists: (keyId: string) => `密钥 ID ${keyId} 已添加过`,
  p8Invalid: '无法读取 .p8 私钥：请上传从 App Store Connect 下载的 AuthKey_<密钥ID>.p8 文件',
  notAuthorized:
    'Apple 拒绝了此 API 密钥（401 NOT_AUTHORIZED）：请核对 Issuer ID、密钥 ID 与 .p8 文件是否对应，以及密钥是否已被撤销',
  agreementExpired: 'Apple 开发者协议缺失或已过期：请账号持有人登录 App Store Connect 接受最新协议后再试',
  forbidden: '此 API 密钥无权执行该操作：请在 App Store Connect 中为密钥授予“管理”或“开发者”角色',
  deviceLimit: (detail: string) =>
    `Apple 账号的此类设备已达年度上限（每类 100 台，停用的设备同样占名额），无法再注册：${detail}`,
  deviceDuplicate: (udid: string) => `设备 ${udid} 已在 Apple 账号中注册`,
  udidRejected: (udid: string) => `Apple 不接受设备标识 ${udid}：格式无效`,
  rateLimited: 'Apple 接口调用过于频繁（每个密钥每小时 3500 次），请稍后再试',
  unreachable: (reason: string) => `无法连接 Apple 服务器：${reason}`,
  appleError: (status: number, code: string, detail: string) => `Apple 返回错误（${status} ${code}）：${detail}`,
  notSynced: '请先同步此 Apple 账号',
  nothingToRegister: '没有需要注册到 Apple 的本地设备',
  deviceNotFound: (id: number) => `设备 ${id} 不存在`,
  bundleIdNotFound: (bundleId: string) => `Apple 账号中没有 Bundle ID ${bundleId}，请先在开发者网站创建后同步`,
  noCertificate: (type: string) =>
    `此 Apple 账号中没有与已上传证书对应的${type}证书：请先在“证书管理”上传该证书的 .p12 后同步`,
  certificateNotInAccount: '所选证书不属于此 Apple 账号，或类型与描述文件不符',
  noDevices: '此 Apple 账号中没有已启用的 iOS 设备，无法生成包含设备的描述文件',
  appNotFound: (id: number) => `应用 ${id} 不存在`,
  certificateNotFound: (id: number) => `证书 ${id} 不存在`,
  profileUnreadable: 'Apple 返回的描述文件无法读取',
  versionNotFound: '安装包版本不存在',
  versionWithoutBundleId: '该版本没有 Bundle ID，只能为 iOS 安装包（.ipa）添加设备',
  appNotBound: '该应用还没有绑定苹果账号：请在“苹果账号”中把应用绑定到账号',
  localDeviceNotFound: '设备不存在',
} as const;
