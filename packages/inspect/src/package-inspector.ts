import { open } from 'node:fs/promises';
import { fileExtensionOf, kindOfFileName, packageKindRow } from '@release/contract/package-kinds';
import { AAB_MANIFEST, inspectAab } from './aab-inspector.ts';
import { APK_MANIFEST, inspectApk } from './apk-inspector.ts';
import { HAP_MODULE_JSON, inspectHap } from './hap-inspector.ts';
import { APP_PACK_INFO, inspectHarmonyApp, isModuleFileName } from './harmony-app-inspector.ts';
import { inspectionFailure, kindMismatch } from './inspection-error.ts';
import { inspectIpa } from './ipa-inspector.ts';
import { findMacBundle, inspectMacZip } from './mac-inspector.ts';
import { archiveFacts } from './package-facts.ts';
import type { InspectionLimits, PackageInspection, PackageKind } from './types.ts';
import { inspectHtml, inspectWebZip, looksLikeHtml } from './web-inspector.ts';
import { defaultLimits, openZipIndex, type ZipIndex } from './zip-index.ts';
import { readAt, startsLikeZip } from './zip-layout.ts';

/** What the uploader said the file is: a chosen type or a file name's extension (a Mac app has none: it is a .zip). */
export type DeclaredKind = Exclude<PackageKind, 'mac'>;

export interface InspectPackageOptions {
  /** The type chosen in the UI, if any; wins over the file name. */
  kind?: DeclaredKind;
  /** The original file name (`Demo.ipa`), used for its extension and in messages. */
  declaredName?: string;
  limits?: Partial<InspectionLimits>;
}

const HTML_HEAD_BYTES = 64 * 1024;
const IPA_LAYOUT = /(^|\/)Payload\/[^/]+\.app\/Info\.plist$/;
const INFO_PLIST = 'Info.plist';

/** The kind a file name declares by its extension (the contract's kind table). */
function declaredByName(name: string): DeclaredKind | null {
  const kind = kindOfFileName(name);
  return kind === 'mac' ? null : kind;
}

/**
 * Decides by content what an archive is; never by its name. One pass (games hold 50,000 entries): only
 * names ending in `Info.plist` meet a regular expression.
 */
export function detectZipKind(names: Iterable<string>): PackageKind {
  let isAab = false;
  let isIpa = false;
  let isHap = false;
  let hasPackInfo = false;
  let hasModuleFile = false;
  const infoPlists: string[] = [];
  for (const name of names) {
    if (name === APK_MANIFEST) return 'apk';
    if (name === AAB_MANIFEST) isAab = true;
    else if (name === HAP_MODULE_JSON) isHap = true;
    else if (name === APP_PACK_INFO) hasPackInfo = true;
    else if (name.endsWith(INFO_PLIST)) {
      infoPlists.push(name);
      if (!isIpa && IPA_LAYOUT.test(name)) isIpa = true;
    } else if (!hasModuleFile && isModuleFileName(name)) hasModuleFile = true;
  }
  if (isAab) return 'aab';
  if (isIpa) return 'ipa';
  if (isHap) return 'hap';
  if (hasPackInfo && hasModuleFile) return 'app';
  if (findMacBundle(infoPlists)) return 'mac';
  return 'zip';
}

interface Expectation {
  kind: DeclaredKind | null;
  /** `扩展名为.ipa` or `选择的类型为iOS安装包`, for mismatch messages. */
  label: string;
}

function expectationOf(options: InspectPackageOptions): Expectation {
  const name = options.declaredName ?? '';
  const extension = fileExtensionOf(name);
  const fromName = declaredByName(name);
  if (options.kind) {
    return {
      kind: options.kind,
      label:
        fromName === options.kind && extension
          ? `扩展名为.${extension}`
          : `所选类型为${packageKindRow(options.kind).label}`,
    };
  }
  return { kind: fromName, label: extension ? `扩展名为.${extension}` : '' };
}

/** A different kind of app than declared is an error; a plain zip declared as an app is left to its inspector to explain. */
function assertCompatible(expected: Expectation, detected: PackageKind): void {
  if (!expected.kind || expected.kind === detected) return;
  if (expected.kind === 'zip' && detected === 'mac') return;
  // A module file is a .hap or an .hsp by its module's type, read by its inspector (checked after it).
  if (expected.kind === 'hsp' && detected === 'hap') return;
  if (detected === 'zip' && expected.kind !== 'html') return;
  throw kindMismatch(expected.label, detected);
}

async function inspectModuleFile(zip: ZipIndex, expected: Expectation): Promise<PackageInspection> {
  const inspection = await inspectHap(zip);
  if ((expected.kind === 'hap' || expected.kind === 'hsp') && expected.kind !== inspection.kind)
    throw kindMismatch(expected.label, inspection.kind);
  return inspection;
}

/** The inspection with its package facts: the kind's own (ipa, apk, aab), a Mac app's parts, or sizes by folder. */
async function inspectArchive(
  zip: ZipIndex,
  expected: Expectation,
  limits: InspectionLimits,
): Promise<PackageInspection> {
  const inspection = await inspectArchiveKind(zip, expected, limits);
  inspection.facts ??= archiveFacts(zip);
  return inspection;
}

async function inspectArchiveKind(
  zip: ZipIndex,
  expected: Expectation,
  limits: InspectionLimits,
): Promise<PackageInspection> {
  const detected = detectZipKind(zip.entries.keys());
  assertCompatible(expected, detected);
  const kind = detected === 'zip' && expected.kind && expected.kind !== 'zip' ? expected.kind : detected;
  switch (kind) {
    case 'ipa':
      return inspectIpa(zip);
    case 'apk':
      return inspectApk(zip);
    case 'aab':
      return inspectAab(zip);
    case 'mac':
      return inspectMacZip(zip);
    case 'zip':
    case 'html':
      return inspectWebZip(zip);
    case 'hap':
    case 'hsp':
      return inspectModuleFile(zip, expected);
    case 'app':
      return inspectHarmonyApp(zip, limits);
  }
}

/**
 * Inspects an uploaded package on disk without loading it whole: detects the kind by content, checks it
 * against the declared one, and reads its metadata. Throws PackageInspectionError for anything the uploader
 * must fix; partly readable packages come back with `warnings`.
 */
export async function inspectPackage(
  filePath: string,
  options: InspectPackageOptions = {},
): Promise<PackageInspection> {
  const limits: InspectionLimits = { ...defaultLimits, ...options.limits };
  const expected = expectationOf(options);
  const handle = await open(filePath, 'r');
  let head: Buffer;
  let fileSize: number;
  try {
    fileSize = (await handle.stat()).size;
    head = await readAt(handle, 0, Math.min(fileSize, HTML_HEAD_BYTES));
  } finally {
    await handle.close();
  }
  if (fileSize === 0) throw inspectionFailure('emptyFile');
  if (!startsLikeZip(head) && looksLikeHtml(head)) {
    if (expected.kind && expected.kind !== 'html') throw kindMismatch(expected.label, 'html');
    return inspectHtml(head, fileSize);
  }
  const zip = await openZipIndex(filePath, limits);
  try {
    return await inspectArchive(zip, expected, limits);
  } finally {
    await zip.close();
  }
}
