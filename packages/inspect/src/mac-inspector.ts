import { toStorableIcon } from './icon-image.ts';
import { sniffImage } from './image-info.ts';
import { inspectionFailure } from './inspection-error.ts';
import { readEmbeddedProfile } from './mobileprovision.ts';
import { macFacts } from './package-facts.ts';
import { parsePlistDict, plistText } from './plist.ts';
import type { MacInspection, PackageIcon } from './types.ts';
import { countFiles, type ZipIndex } from './zip-index.ts';

const MAC_INFO_PLIST = /^(?!__MACOSX\/)((?:[^/]+\/)*?[^/]+\.app\/)Contents\/Info\.plist$/;
const MAX_ICNS_BYTES = 16 * 1024 * 1024;

/** The outermost `*.app/Contents/Info.plist` (shortest path), ignoring helpers and login items nested inside. */
export function findMacBundle(names: Iterable<string>): string | null {
  let best: string | null = null;
  for (const name of names) {
    if (!name.endsWith('/Contents/Info.plist')) continue;
    const match = MAC_INFO_PLIST.exec(name);
    if (match?.[1] && (best === null || match[1].length < best.length)) best = match[1];
  }
  return best;
}

/** The largest PNG/JPEG image stored in an .icns container (ic07…ic14 hold PNGs). */
export function largestIcnsImage(bytes: Buffer): Buffer | null {
  if (bytes.length < 8 || bytes.toString('latin1', 0, 4) !== 'icns') return null;
  const end = Math.min(bytes.length, bytes.readUInt32BE(4));
  let best: { data: Buffer; width: number } | null = null;
  for (let at = 8; at + 8 <= end; ) {
    const length = bytes.readUInt32BE(at + 4);
    if (length < 8 || at + length > end) break;
    const data = bytes.subarray(at + 8, at + length);
    const info = sniffImage(data);
    if (info?.width && (!best || info.width > best.width)) best = { data, width: info.width };
    at += length;
  }
  return best?.data ?? null;
}

async function readMacIcon(
  zip: ZipIndex,
  bundlePath: string,
  iconFile: string | null,
): Promise<{ icon: PackageIcon | null; warning: string | null }> {
  if (!iconFile) return { icon: null, warning: '应用未声明图标文件，已使用默认图标' };
  const name = iconFile.endsWith('.icns') ? iconFile : `${iconFile}.icns`;
  const path = `${bundlePath}Contents/Resources/${name}`;
  const entry = zip.entries.get(path);
  if (!entry || entry.uncompressedSize > MAX_ICNS_BYTES)
    return { icon: null, warning: '应用图标只存在于 Assets.car 中或无法读取，已使用默认图标' };
  const image = largestIcnsImage(await zip.readEntry(path, MAX_ICNS_BYTES));
  const icon = image ? await toStorableIcon(Buffer.from(image), path) : null;
  return icon ? { icon, warning: null } : { icon: null, warning: '应用图标格式无法读取，已使用默认图标' };
}

/** Reads a zipped macOS app: outermost bundle's Info.plist, .icns icon, embedded provisioning profile. */
export async function inspectMacZip(zip: ZipIndex): Promise<MacInspection> {
  const bundlePath = findMacBundle(zip.entries.keys());
  if (!bundlePath) throw inspectionFailure('missingAppBundle', '找不到 *.app/Contents/Info.plist');
  const info = parsePlistDict(await zip.readEntry(`${bundlePath}Contents/Info.plist`));
  if (!info) throw inspectionFailure('metadataUnreadable', 'Info.plist 无法解析');
  const warnings: string[] = [];
  const { icon, warning } = await readMacIcon(zip, bundlePath, plistText(info, 'CFBundleIconFile'));
  if (warning) warnings.push(warning);
  const bundleName = bundlePath.slice(0, -'.app/'.length).split('/').pop() ?? bundlePath;
  const { profile, entitlements } = await readEmbeddedProfile(
    zip,
    `${bundlePath}Contents/embedded.provisionprofile`,
    warnings,
  );
  const inspection: MacInspection = {
    kind: 'mac',
    fileSize: zip.fileSize,
    warnings,
    displayName: plistText(info, 'CFBundleDisplayName') ?? plistText(info, 'CFBundleName') ?? bundleName,
    bundleId: plistText(info, 'CFBundleIdentifier'),
    version: plistText(info, 'CFBundleShortVersionString'),
    build: plistText(info, 'CFBundleVersion'),
    minimumOsVersion: plistText(info, 'LSMinimumSystemVersion'),
    bundlePath,
    icon,
    provisioningProfile: profile,
    fileCount: countFiles(zip),
    uncompressedSize: zip.totalUncompressedBytes,
  };
  inspection.facts = macFacts(zip, inspection, entitlements);
  return inspection;
}
