import { toStorableIcon } from './icon-image.ts';
import { sniffImage } from './image-info.ts';
import { isPlistDict, plistDictAt, plistStrings, type PlistDict } from './plist.ts';
import type { PackageIcon } from './types.ts';
import type { ZipIndex } from './zip-index.ts';

const MAX_ICON_CANDIDATES = 32;
const MAX_ICON_BYTES = 8 * 1024 * 1024;

/** Icon base names from every place Info.plist may declare them, in order of preference. */
export function declaredIconNames(info: PlistDict): string[] {
  const names: string[] = [];
  for (const key of ['CFBundleIcons', 'CFBundleIcons~ipad']) {
    const icons = plistDictAt(info, key);
    const primary = icons?.CFBundlePrimaryIcon;
    if (isPlistDict(primary)) {
      names.push(...plistStrings(primary, 'CFBundleIconFiles'));
      names.push(...plistStrings(primary, 'CFBundleIconName'));
    } else if (typeof primary === 'string') {
      names.push(primary);
    }
  }
  names.push(...plistStrings(info, 'CFBundleIconFiles'), ...plistStrings(info, 'CFBundleIconFile'));
  return [...new Set(names.map((name) => name.trim()).filter(Boolean))];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Files at the bundle root that belong to one of `names` (`AppIcon60x60@3x.png`, `Icon~ipad.png`...). */
function matchingFiles(rootFiles: string[], names: string[]): string[] {
  const patterns = names.map((name) => {
    const base = escapeRegExp(name.replace(/\.png$/i, ''));
    return new RegExp(`^${base}(@\\dx)?(~(ipad|iphone|car|tv))?(@\\dx)?\\.png$`, 'i');
  });
  return rootFiles.filter((file) => patterns.some((pattern) => pattern.test(file)));
}

export interface IpaIconResult {
  icon: PackageIcon | null;
  warning: string | null;
}

/**
 * Resolves the app icon: declared names (iPhone and iPad keys, old keys), then any `AppIcon*`/`Icon*` PNG,
 * largest first; CgBI is converted. Icons that only live in Assets.car give null with a warning.
 */
export async function resolveIpaIcon(zip: ZipIndex, bundlePath: string, info: PlistDict): Promise<IpaIconResult> {
  const rootFiles: string[] = [];
  for (const name of zip.entries.keys()) {
    if (name.length > bundlePath.length && name.indexOf('/', bundlePath.length) === -1 && name.startsWith(bundlePath))
      rootFiles.push(name.slice(bundlePath.length));
  }
  let candidates = matchingFiles(rootFiles, declaredIconNames(info));
  if (candidates.length === 0) candidates = rootFiles.filter((file) => /^(AppIcon|Icon).*\.png$/i.test(file));
  const sized: { path: string; bytes: Buffer; width: number }[] = [];
  for (const file of candidates.slice(0, MAX_ICON_CANDIDATES)) {
    const path = bundlePath + file;
    const entry = zip.entries.get(path);
    if (!entry || entry.uncompressedSize > MAX_ICON_BYTES) continue;
    const bytes = await zip.readEntry(path, MAX_ICON_BYTES);
    const info = sniffImage(bytes);
    if (info) sized.push({ path, bytes, width: info.width ?? 0 });
  }
  sized.sort((a, b) => b.width - a.width);
  for (const candidate of sized) {
    const icon = await toStorableIcon(candidate.bytes, candidate.path);
    if (icon) return { icon, warning: null };
  }
  if (sized.length > 0) return { icon: null, warning: '应用图标无法转换，已使用默认图标' };
  if (zip.entries.has(`${bundlePath}Assets.car`))
    return { icon: null, warning: '应用图标只存在于 Assets.car 中，已使用默认图标' };
  return { icon: null, warning: '安装包中未找到应用图标，已使用默认图标' };
}
