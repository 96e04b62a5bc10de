import { inspectionFailure, type PackageInspectionError } from './inspection-error.ts';
import { resolveIpaIcon } from './ipa-icon.ts';
import { readEmbeddedProfile } from './mobileprovision.ts';
import { ipaFacts } from './package-facts.ts';
import { sourceValuesOf } from './source-values.ts';
import { parsePlistDict, plistNumbers, plistStrings, plistText, type PlistDict } from './plist.ts';
import type { AppleDeviceFamily, ApplePlatform, IpaInspection, NestedBundle } from './types.ts';
import type { ZipIndex } from './zip-index.ts';

const MAIN_INFO_PLIST = /^Payload\/[^/]+\.app\/Info\.plist$/;
const MISPLACED_INFO_PLIST = /^(.+\/)Payload\/[^/]+\.app\/Info\.plist$/;
const NESTED_BUNDLE_PLIST = /^(.+\.(?:app|appex))\/Info\.plist$/;
const MAX_NESTED_BUNDLES = 20;
/** Cheap tests before the expressions above: a game's ipa has 50,000 names. */
const INFO_PLIST = 'Info.plist';
const NESTED_INFO_PLIST = '/Info.plist';

const deviceFamilyCodes: Record<number, AppleDeviceFamily> = {
  1: 'iphone',
  2: 'ipad',
  3: 'tv',
  4: 'watch',
  5: 'carplay',
  6: 'mac',
  7: 'vision',
};

/** The main bundle is the SHORTEST `Payload/*.app/Info.plist`; watch apps, extensions and frameworks are nested deeper. */
export function findMainBundle(names: Iterable<string>): string | null {
  let best: string | null = null;
  for (const name of names) {
    if (name.endsWith(INFO_PLIST) && MAIN_INFO_PLIST.test(name) && (best === null || name.length < best.length))
      best = name;
  }
  return best === null ? null : best.slice(0, -'Info.plist'.length);
}

function missingBundleError(names: Iterable<string>): PackageInspectionError {
  for (const name of names) {
    if (!name.endsWith(INFO_PLIST)) continue;
    const misplaced = MISPLACED_INFO_PLIST.exec(name);
    if (misplaced)
      return inspectionFailure('missingAppBundle', `Payload 目录应位于压缩包根目录，实际位于 ${misplaced[1] ?? ''}`);
  }
  return inspectionFailure('missingAppBundle', '找不到 Payload/*.app/Info.plist');
}

export function applePlatformOf(info: PlistDict): ApplePlatform {
  const platforms = [...plistStrings(info, 'CFBundleSupportedPlatforms'), plistText(info, 'DTPlatformName') ?? ''].map(
    (item) => item.toLowerCase(),
  );
  if (platforms.some((item) => item.startsWith('appletv'))) return 'tvos';
  if (platforms.some((item) => item.startsWith('watch'))) return 'watchos';
  if (platforms.some((item) => item.startsWith('xr') || item.startsWith('vision'))) return 'visionos';
  if (platforms.some((item) => item === 'macosx')) return 'macos';
  return 'ios';
}

function deviceFamiliesOf(info: PlistDict, platform: ApplePlatform): AppleDeviceFamily[] {
  const families = plistNumbers(info, 'UIDeviceFamily').flatMap((code) =>
    deviceFamilyCodes[code] ? [deviceFamilyCodes[code]] : [],
  );
  if (families.length > 0) return [...new Set(families)];
  const implied: Record<ApplePlatform, AppleDeviceFamily> = {
    ios: 'iphone',
    tvos: 'tv',
    watchos: 'watch',
    visionos: 'vision',
    macos: 'mac',
  };
  return [implied[platform]];
}

async function readNestedBundles(zip: ZipIndex, bundlePath: string, warnings: string[]): Promise<NestedBundle[]> {
  const bundles: NestedBundle[] = [];
  for (const name of zip.entries.keys()) {
    if (!name.endsWith(NESTED_INFO_PLIST) || !name.startsWith(bundlePath) || name === `${bundlePath}Info.plist`)
      continue;
    const match = NESTED_BUNDLE_PLIST.exec(name);
    if (!match?.[1]) continue;
    if (bundles.length >= MAX_NESTED_BUNDLES) break;
    const info = parsePlistDict(await zip.readEntry(name));
    if (!info) warnings.push(`内嵌组件 ${match[1]} 的 Info.plist 无法解析`);
    bundles.push({ path: `${match[1]}/`, bundleId: info ? plistText(info, 'CFBundleIdentifier') : null });
  }
  return bundles;
}

/** Reads an .ipa through its zip index: main bundle, Info.plist, icon, provisioning profile and nested bundles. */
export async function inspectIpa(zip: ZipIndex): Promise<IpaInspection> {
  const bundlePath = findMainBundle(zip.entries.keys());
  if (!bundlePath) throw missingBundleError(zip.entries.keys());
  const info = parsePlistDict(await zip.readEntry(`${bundlePath}Info.plist`));
  if (!info) throw inspectionFailure('metadataUnreadable', 'Info.plist 无法解析');
  const bundleId = plistText(info, 'CFBundleIdentifier');
  if (!bundleId) throw inspectionFailure('metadataUnreadable', 'Info.plist 中缺少 CFBundleIdentifier');
  const warnings: string[] = [];
  const platform = applePlatformOf(info);
  const executable = plistText(info, 'CFBundleExecutable');
  const bundleName = bundlePath.slice('Payload/'.length, -'.app/'.length);
  const { icon, warning } = await resolveIpaIcon(zip, bundlePath, info);
  if (warning) warnings.push(warning);
  const { profile: provisioningProfile, entitlements } = await readEmbeddedProfile(
    zip,
    `${bundlePath}embedded.mobileprovision`,
    warnings,
  );
  const nestedBundles = await readNestedBundles(zip, bundlePath, warnings);
  if (executable && !zip.entries.has(bundlePath + executable)) warnings.push('安装包中缺少可执行文件，可能无法安装');
  const inspection: IpaInspection = {
    kind: 'ipa',
    fileSize: zip.fileSize,
    warnings,
    platform,
    displayName: plistText(info, 'CFBundleDisplayName') ?? plistText(info, 'CFBundleName') ?? executable ?? bundleName,
    bundleId,
    version: plistText(info, 'CFBundleShortVersionString'),
    build: plistText(info, 'CFBundleVersion'),
    minimumOsVersion: plistText(info, 'MinimumOSVersion') ?? plistText(info, 'LSMinimumSystemVersion'),
    deviceFamilies: deviceFamiliesOf(info, platform),
    supportedPlatforms: plistStrings(info, 'CFBundleSupportedPlatforms'),
    executable,
    bundlePath,
    nestedBundles,
    icon,
    provisioningProfile,
  };
  inspection.facts = ipaFacts(zip, inspection, info, entitlements);
  const sourceValues = sourceValuesOf(Object.entries(info));
  if (sourceValues) inspection.sourceValues = sourceValues;
  return inspection;
}
