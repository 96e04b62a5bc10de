import { resolveApkIcon } from './apk-icon.ts';
import { readManifestModel, toManifestInfo } from './apk-manifest.ts';
import { sourceValuesOf } from './source-values.ts';
import { readApkSignatures } from './apk-signature.ts';
import { ResourceTable } from './arsc.ts';
import { androidFacts } from './package-facts.ts';
import { parseBinaryXml, type XmlElement } from './axml.ts';
import { inspectionFailure, PackageInspectionError } from './inspection-error.ts';
import { ResourceFormatError } from './res-string-pool.ts';
import type { ApkInspection } from './types.ts';
import type { ZipIndex } from './zip-index.ts';

export const APK_MANIFEST = 'AndroidManifest.xml';

async function readManifest(zip: ZipIndex): Promise<XmlElement> {
  if (!zip.entries.has(APK_MANIFEST)) throw inspectionFailure('missingAppBundle', '找不到 AndroidManifest.xml');
  let root: XmlElement;
  try {
    root = parseBinaryXml(await zip.readEntry(APK_MANIFEST));
  } catch (error) {
    if (error instanceof ResourceFormatError)
      throw inspectionFailure('metadataUnreadable', 'AndroidManifest.xml 无法解析', error);
    throw error;
  }
  if (root.name !== 'manifest') throw inspectionFailure('metadataUnreadable', 'AndroidManifest.xml 无法解析');
  return root;
}

async function readResourceTable(zip: ZipIndex, warnings: string[]): Promise<ResourceTable | null> {
  if (!zip.entries.has('resources.arsc')) {
    warnings.push('安装包中没有 resources.arsc，应用名称和图标可能无法显示');
    return null;
  }
  try {
    return new ResourceTable(await zip.readEntry('resources.arsc'));
  } catch (error) {
    const isUnreadable =
      error instanceof ResourceFormatError ||
      (error instanceof PackageInspectionError && error.reason === 'entryTooLarge');
    if (!isUnreadable) throw error;
    warnings.push('资源表 resources.arsc 无法解析，应用名称和图标可能无法显示');
    return null;
  }
}

/** ABIs of bundled native libraries: `lib/<abi>/*.so` (APK) or `base/lib/<abi>/*.so` (AAB). */
export function nativeAbisOf(names: Iterable<string>, prefix = 'lib/'): string[] {
  const abis = new Set<string>();
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.so')) continue;
    const abi = name.slice(prefix.length).split('/')[0];
    if (abi) abis.add(abi);
  }
  return [...abis].sort();
}

/** Reads an .apk: manifest (binary XML), labels and icon through resources.arsc, signer certificates of v1–v3.1. */
export async function inspectApk(zip: ZipIndex): Promise<ApkInspection> {
  const manifest = await readManifest(zip);
  const warnings: string[] = [];
  const model = readManifestModel(manifest);
  const table = await readResourceTable(zip, warnings);
  const info = toManifestInfo(model, table, warnings);
  const { icon, warning } = await resolveApkIcon(zip, table, model.iconResourceIds);
  if (warning) warnings.push(warning);
  const signatures = await readApkSignatures(zip);
  if (signatures.signers.length === 0) warnings.push('安装包未签名，设备上无法安装');
  const inspection: ApkInspection = {
    kind: 'apk',
    fileSize: zip.fileSize,
    warnings,
    ...info,
    nativeAbis: nativeAbisOf(zip.entries.keys()),
    icon,
    signatures,
  };
  inspection.facts = androidFacts(zip, inspection);
  const sourceValues = sourceValuesOf(model.metaData);
  if (sourceValues) inspection.sourceValues = sourceValues;
  return inspection;
}
