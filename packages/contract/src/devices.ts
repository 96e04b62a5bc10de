import { z } from 'zod';
import { idParam, intFromQuery, pageQuery } from './common.ts';

export const devicePlatforms = ['ios', 'mac'] as const;
export type DevicePlatform = (typeof devicePlatforms)[number];
export const devicePlatformLabels: Record<DevicePlatform, string> = { ios: 'iOS', mac: 'macOS' };

/** Apple's limit on a device name (portal and fastlane's importer). */
export const DEVICE_NAME_MAX_LENGTH = 50;
/** Largest device list file `/api/udid/import` reads. */
export const DEVICE_FILE_MAX_BYTES = 1024 * 1024;
export const deviceExportFormats = ['txt', 'csv', 'deviceids'] as const;
export type DeviceExportFormat = (typeof deviceExportFormats)[number];

const IOS_UDID = /^(?:[0-9]{8}-[0-9a-f]{16}|[0-9a-f]{40})$/i;
const MAC_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MODERN_UDID = /^[0-9]{8}-[0-9a-f]{16}$/i;

/**
 * A UDID in the one spelling we store (Apple compares them case-insensitively): 40-hex ones lower case,
 * `00008030-…` and Mac UUIDs upper case, as devices and Xcode show them. Null when malformed for the platform.
 */
export function normalizeUdid(raw: string, platform: DevicePlatform): string | null {
  const udid = raw.trim();
  if (platform === 'ios') {
    if (!IOS_UDID.test(udid)) return null;
    return udid.length === 40 ? udid.toLowerCase() : udid.toUpperCase();
  }
  // Apple-silicon Macs register with the same `8-16` form as iPhones; Intel Macs with a UUID.
  return MAC_UUID.test(udid) || MODERN_UDID.test(udid) ? udid.toUpperCase() : null;
}

/** An admin's review of a device: install page registrations start pending; only confirmed ones go to Apple and exports. */
export const deviceReviewStatuses = ['confirmed', 'pending', 'rejected'] as const;
export type DeviceReviewStatus = (typeof deviceReviewStatuses)[number];
export const deviceReviewLabels: Record<DeviceReviewStatus, string> = {
  confirmed: '已确认',
  pending: '待确认',
  rejected: '已拒绝',
};

/** Whether the device is in an Apple account's device list, as of that account's last sync. */
export const deviceAppleRegistration = z.object({
  accountId: z.number(),
  accountName: z.string(),
  registered: z.boolean(),
  /** Apple's status of the registered device (ENABLED, DISABLED); null when not registered. */
  status: z.string().nullable(),
});
export type DeviceAppleRegistration = z.infer<typeof deviceAppleRegistration>;

export const deviceRow = z.object({
  id: z.number(),
  udid: z.string(),
  deviceName: z.string(),
  platform: z.enum(devicePlatforms),
  model: z.string().nullable(),
  remark: z.string(),
  reviewStatus: z.enum(deviceReviewStatuses),
  /** One entry per synced Apple account. */
  apple: z.array(deviceAppleRegistration),
  createTime: z.number(),
  updateTime: z.number(),
  createBy: z.string().nullable(),
});
export type DeviceRow = z.infer<typeof deviceRow>;

export const deviceListQuery = pageQuery.extend({
  pageSize: intFromQuery.min(1).max(1000).default(20),
  /** Part of a UDID, name or model, any letter case. */
  keyword: z.string().trim().max(64).optional(),
  platform: z.enum(devicePlatforms).optional(),
  reviewStatus: z.enum(deviceReviewStatuses).optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

export const saveDeviceBody = z.object({
  id: intFromQuery.min(1).optional(),
  udid: z.string().trim().min(1, '请输入设备UDID').max(64, 'UDID 格式不正确'),
  deviceName: z
    .string()
    .trim()
    .min(1, '请输入设备名称')
    .max(DEVICE_NAME_MAX_LENGTH, `设备名称不能超过${DEVICE_NAME_MAX_LENGTH}个字符`),
  platform: z.enum(devicePlatforms).default('ios'),
  model: z.string().trim().max(64).optional().nullable(),
  remark: z.string().trim().max(200, '备注不能超过200个字符').optional(),
});
export type SaveDeviceBody = z.input<typeof saveDeviceBody>;
export type SaveDeviceInput = z.infer<typeof saveDeviceBody>;

export const deviceIdQuery = z.object({ id: idParam });
/** An admin's 确认 (confirmed) or 拒绝 (rejected) of a device. */
export const reviewDeviceBody = z.object({ id: intFromQuery.min(1), reviewStatus: z.enum(['confirmed', 'rejected']) });
export type ReviewDeviceBody = z.input<typeof reviewDeviceBody>;
export const deviceExportQuery = z.object({ format: z.enum(deviceExportFormats) });

export const deviceImportError = z.object({ line: z.number(), message: z.string() });
export type DeviceImportError = z.infer<typeof deviceImportError>;
export const deviceImportResult = z.object({
  added: z.number(),
  /** Lines whose UDID is already registered; they are left as they are. */
  existing: z.array(z.object({ line: z.number(), udid: z.string() })),
});
export type DeviceImportResult = z.infer<typeof deviceImportResult>;
/** The `data` of a refused import: every bad line, nothing imported. */
export const deviceImportFailure = z.object({ errors: z.array(deviceImportError) });
export type DeviceImportFailure = z.infer<typeof deviceImportFailure>;

export const DeviceMessages = {
  udidInvalid: (platform: DevicePlatform) =>
    platform === 'ios'
      ? 'UDID 格式不正确（应为 40 位十六进制，或 8 位数字-16 位十六进制）'
      : 'UDID 格式不正确（Mac 应为 UUID）',
  udidExists: (udid: string) => `设备 ${udid} 已存在`,
  deviceNotFound: '设备不存在',
  fileMissing: '请选择设备列表文件',
  fileTooLarge: `设备列表文件不能超过 ${DEVICE_FILE_MAX_BYTES / 1024 / 1024} MB`,
  fileEmpty: '设备列表文件中没有设备',
  fileUnreadable: '无法识别的设备列表文件，请使用苹果的设备列表格式（.txt / .deviceids）或 CSV',
  lineHeader: '表头应为 Device ID<TAB>Device Name<TAB>Device Platform',
  lineFields: '每行应有 2 到 3 列（UDID、设备名称、平台）',
  lineName: `设备名称不能为空且不超过${DEVICE_NAME_MAX_LENGTH}个字符`,
  linePlatform: '平台只能是 ios 或 mac',
  lineDuplicate: (line: number) => `UDID 与第 ${line} 行重复`,
  importRace: '导入时有设备被同时添加，未导入任何设备，请重新导入',
  notConfirmed: (name: string) => `设备「${name}」待管理员确认，确认后才能注册到 Apple`,
  rejected: (name: string) => `设备「${name}」已被拒绝，不会注册到 Apple；如需使用请先确认该设备`,
  importFailed: (first: string, count: number) =>
    `导入失败，未导入任何设备：${first}${count > 1 ? `（共 ${count} 处错误）` : ''}`,
} as const;

/** `第 3 行：UDID 格式不正确…` */
export function describeImportError(error: DeviceImportError): string {
  return `第 ${error.line} 行：${error.message}`;
}
