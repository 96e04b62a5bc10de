import { Density, type ResourceCandidate, type ResourceResolver } from './arsc.ts';
import { AndroidAttr, childElements, findAttribute, parseBinaryXml, type XmlElement } from './axml.ts';
import { composeAdaptiveIcon, toStorableIcon, type IconLayer } from './icon-image.ts';
import { colorToArgb, isColorType, isReferenceType } from './res-string-pool.ts';
import type { PackageIcon } from './types.ts';
import type { ZipIndex } from './zip-index.ts';

const RASTER = /\.(png|webp|jpe?g)$/i;
const MAX_ICON_BYTES = 8 * 1024 * 1024;
const BITMAP_SRC = 0x01010119;

export interface ApkIconResult {
  icon: PackageIcon | null;
  warning: string | null;
}

function densityRank(density: number): number {
  if (density === Density.none) return 1;
  if (density === Density.default) return Density.mdpi;
  if (density === Density.any) return 0;
  return density;
}

function byDensity(candidates: ResourceCandidate[]): ResourceCandidate[] {
  return [...candidates].sort(
    (a, b) =>
      densityRank(b.config.density) - densityRank(a.config.density) || b.config.sdkVersion - a.config.sdkVersion,
  );
}

type Layer = IconLayer | { color: number };

class IconResolver {
  constructor(
    private readonly zip: ZipIndex,
    private readonly table: ResourceResolver,
  ) {}

  async readFile(path: string): Promise<Buffer | null> {
    const entry = this.zip.entries.get(path);
    if (!entry || entry.uncompressedSize > MAX_ICON_BYTES) return null;
    return this.zip.readEntry(path, MAX_ICON_BYTES);
  }

  /** Raster files of a drawable, highest density first. */
  rasters(candidates: ResourceCandidate[]): string[] {
    return byDensity(candidates).flatMap((item) =>
      item.text && RASTER.test(item.text) && !item.text.endsWith('.9.png') ? [item.text] : [],
    );
  }

  private async xmlRoot(path: string): Promise<XmlElement | null> {
    const bytes = await this.readFile(path);
    if (!bytes) return null;
    try {
      return parseBinaryXml(bytes);
    } catch {
      return null;
    }
  }

  /** One layer of an adaptive icon: a raster image or a colour; vectors give null. */
  async layer(element: XmlElement | undefined, depth = 0): Promise<Layer | null> {
    const attribute = element && findAttribute(element, 'drawable', AndroidAttr.drawable);
    if (!attribute || depth > 3) return null;
    if (isColorType(attribute.value.type)) return { color: colorToArgb(attribute.value) };
    if (!isReferenceType(attribute.value.type)) return null;
    const candidates = this.table.resolve(attribute.value.data);
    const color = candidates.find((item) => isColorType(item.value.type));
    if (color) return { color: colorToArgb(color.value) };
    for (const path of this.rasters(candidates)) {
      const bytes = await this.readFile(path);
      if (bytes) return { bytes, path };
    }
    for (const candidate of byDensity(candidates)) {
      if (!candidate.text?.endsWith('.xml')) continue;
      const root = await this.xmlRoot(candidate.text);
      const source = root?.name === 'bitmap' ? findAttribute(root, 'src', BITMAP_SRC) : undefined;
      if (source && isReferenceType(source.value.type)) {
        const [path] = this.rasters(this.table.resolve(source.value.data));
        const bytes = path ? await this.readFile(path) : null;
        if (path && bytes) return { bytes, path };
      }
    }
    return null;
  }

  async adaptive(path: string): Promise<PackageIcon | null> {
    const root = await this.xmlRoot(path);
    if (root?.name !== 'adaptive-icon') return null;
    const foreground = await this.layer(childElements(root, 'foreground')[0]);
    if (!foreground || 'color' in foreground) return null;
    const background = (await this.layer(childElements(root, 'background')[0])) ?? { color: 0xffffffff };
    return composeAdaptiveIcon(foreground, background);
  }
}

/**
 * Resolves the launcher icon through resources.arsc (never by file name): the highest-density raster of
 * `android:icon` (then `roundIcon`); failing that, an adaptive icon whose foreground is raster is composited.
 */
export async function resolveApkIcon(
  zip: ZipIndex,
  table: ResourceResolver | null,
  iconResourceIds: number[],
): Promise<ApkIconResult> {
  if (iconResourceIds.length === 0) return { icon: null, warning: '清单中未声明应用图标，已使用默认图标' };
  // A missing or unreadable resource table has been reported already, with its consequence for the icon.
  if (!table) return { icon: null, warning: null };
  const resolver = new IconResolver(zip, table);
  const candidatesById = iconResourceIds.map((id) => table.resolve(id));
  for (const candidates of candidatesById) {
    for (const path of resolver.rasters(candidates)) {
      const bytes = await resolver.readFile(path);
      const icon = bytes ? await toStorableIcon(bytes, path) : null;
      if (icon) return { icon, warning: null };
    }
  }
  for (const candidates of candidatesById) {
    for (const candidate of byDensity(candidates)) {
      if (!candidate.text?.endsWith('.xml')) continue;
      const icon = await resolver.adaptive(candidate.text);
      if (icon) return { icon, warning: null };
    }
  }
  return { icon: null, warning: '应用图标为矢量图或无法读取，已使用默认图标' };
}
