import { packageKindRow } from '@release/contract/package-kinds';
import type { PackageKind } from './types.ts';

/** Stable reason codes; the caller maps every one of them to a 400 answer for the uploader. */
export type InspectionFailureReason =
  | 'emptyFile'
  | 'notAPackage'
  | 'corrupt'
  | 'illegalPath'
  | 'zipBomb'
  | 'encrypted'
  | 'entryTooLarge'
  | 'kindMismatch'
  | 'missingAppBundle'
  | 'metadataUnreadable'
  | 'inspectionTimeout'
  | 'inspectionMemory'
  | 'moduleMismatch';

const defaultMessages: Record<InspectionFailureReason, string> = {
  emptyFile: '文件为空',
  notAPackage: '不是有效的安装包',
  corrupt: '文件已损坏或不完整',
  illegalPath: '安装包包含非法路径',
  zipBomb: '压缩包解压后过大（疑似压缩炸弹）',
  encrypted: '压缩包已加密，无法读取',
  entryTooLarge: '安装包中的文件过大，无法读取',
  kindMismatch: '文件内容与扩展名不符',
  missingAppBundle: '安装包中找不到应用信息',
  metadataUnreadable: '无法读取安装包信息',
  inspectionTimeout: '安装包解析超时，文件可能已损坏或结构异常',
  inspectionMemory: '安装包解析所需内存过多，文件可能已损坏或结构异常',
  moduleMismatch: '这些模块不属于同一应用的同一版本',
};

/** A package the uploader has to fix: `reason` is stable for code, `message` is Chinese for people. */
export class PackageInspectionError extends Error {
  readonly reason: InspectionFailureReason;

  constructor(reason: InspectionFailureReason, message?: string, options?: { cause?: unknown }) {
    super(message ?? defaultMessages[reason], options);
    this.name = 'PackageInspectionError';
    this.reason = reason;
  }
}

export function inspectionFailure(
  reason: InspectionFailureReason,
  detail?: string,
  cause?: unknown,
): PackageInspectionError {
  const message = detail ? `${defaultMessages[reason]}：${detail}` : defaultMessages[reason];
  return new PackageInspectionError(reason, message, cause === undefined ? undefined : { cause });
}

/** `扩展名为.ipa但内容是Android安装包` */
export function kindMismatch(declaredLabel: string, detected: PackageKind): PackageInspectionError {
  return new PackageInspectionError('kindMismatch', `${declaredLabel}但内容是${packageKindRow(detected).label}`);
}
