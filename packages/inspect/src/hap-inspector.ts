import { readHapSigning } from './hap-signing.ts';
import { numericReference, RES_MEDIA, RES_STRING, ResourceIndexError } from './hap-resources.ts';
import { openResourceIndex, type ResourceLookup } from './hap-resources-v2.ts';
import { composeAdaptiveIcon, toStorableIcon } from './icon-image.ts';
import { inspectionFailure } from './inspection-error.ts';
import { harmonyFacts } from './package-facts.ts';
import { integerAt, type Json, objectAt, stringAt, stringsAt } from './json-fields.ts';
import type { HapInspection, HarmonyModule, PackageIcon } from './types.ts';
import type { ZipIndex } from './zip-index.ts';

/** What marks a HarmonyOS module file (Stage model): its module.json at the root (docs/harmonyos.md). */
export const HAP_MODULE_JSON = 'module.json';
const RESOURCES_INDEX = 'resources.index';
/** module.json and layered icon JSON: a few KB in real modules; JSON.parse of 1 MiB at any nesting takes < 0.5 s. */
export const MAX_JSON_BYTES = 1024 * 1024;
const MAX_INDEX_BYTES = 32 * 1024 * 1024;
const MAX_IMAGE_BYTES = 16 * 1024 * 1024;

/**
 * `50005017` → `5.0.5(17)`: module.json packs the SDK version and API level as major·10⁷ + minor·10⁵ + patch·10³ +
 * API; an old bare API level (`9`, `12`) stays a number.
 */
export function harmonyApiVersion(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return null;
  if (value < 1000) return String(value);
  const api = value % 1000;
  const patch = Math.floor(value / 1000) % 100;
  const minor = Math.floor(value / 100_000) % 100;
  const major = Math.floor(value / 10_000_000);
  return `${major}.${minor}.${patch}(${api})`;
}

async function readJson(zip: ZipIndex, name: string): Promise<unknown> {
  const bytes = await zip.readEntry(name, MAX_JSON_BYTES);
  try {
    return JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

/** The module file's module.json, read and checked; throws what the uploader must fix. */
export async function readModuleJson(zip: ZipIndex): Promise<{ app: Json; module: Json }> {
  if (!zip.entries.has(HAP_MODULE_JSON))
    throw inspectionFailure('missingAppBundle', '找不到 module.json（HarmonyOS NEXT 的 Stage 模型模块）');
  const json = await readJson(zip, HAP_MODULE_JSON);
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw inspectionFailure('metadataUnreadable', 'module.json 无法解析');
  const app = objectAt(json, 'app');
  const module = objectAt(json, 'module');
  if (!stringAt(app, 'bundleName')) throw inspectionFailure('metadataUnreadable', 'module.json 缺少 bundleName');
  if (!stringAt(module, 'name')) throw inspectionFailure('metadataUnreadable', 'module.json 缺少模块名称');
  return { app, module };
}

export function moduleOf(module: Json, fileName: string | null): HarmonyModule {
  const dependencies = Array.isArray(module.dependencies) ? module.dependencies : [];
  return {
    name: stringAt(module, 'name') ?? '',
    type: stringAt(module, 'type') ?? 'entry',
    deviceTypes: stringsAt(module, 'deviceTypes'),
    dependencies: dependencies.flatMap((dependency) => {
      const name = dependency && typeof dependency === 'object' ? (dependency as Json).moduleName : undefined;
      return typeof name === 'string' ? [name] : [];
    }),
    fileName,
  };
}

/** `entry/resources/base/media/icon.png` (restool names files under the module's folder) → the zip's `resources/…`. */
function entryNameOf(zip: ZipIndex, value: string): string | null {
  if (zip.entries.has(value)) return value;
  const inModule = value.slice(value.indexOf('/') + 1);
  return zip.entries.has(inModule) ? inModule : null;
}

class ResourceReader {
  constructor(
    private readonly zip: ZipIndex,
    private readonly index: ResourceLookup | null,
  ) {}

  /** Labels of a string resource by locale, the base one under `''`. */
  strings(id: number | null): Record<string, string> {
    const labels: Record<string, string> = {};
    if (id === null || !this.index) return labels;
    for (const item of this.index.itemsOf(id)) {
      if (item.type === RES_STRING && item.locale !== null && !(item.locale in labels))
        labels[item.locale] = item.value;
    }
    return labels;
  }

  /** The base configuration's file of a media resource (any configuration's when there is no base one). */
  mediaPath(id: number | null): string | null {
    if (id === null || !this.index) return null;
    const items = this.index.itemsOf(id).filter((item) => item.type === RES_MEDIA);
    const chosen = items.find((item) => item.locale === '') ?? items[0];
    return chosen ? entryNameOf(this.zip, chosen.value) : null;
  }

  async image(path: string): Promise<Buffer | null> {
    const entry = this.zip.entries.get(path);
    if (!entry || entry.uncompressedSize > MAX_IMAGE_BYTES) return null;
    return this.zip.readEntry(path, MAX_IMAGE_BYTES);
  }

  /** A layered icon's JSON drawn foreground over background, or a plain media icon as it is. */
  async icon(id: number | null): Promise<PackageIcon | null> {
    const path = this.mediaPath(id);
    if (!path) return null;
    if (!path.endsWith('.json')) {
      const bytes = await this.image(path);
      return bytes ? toStorableIcon(bytes, path) : null;
    }
    const layered = objectAt(await readJson(this.zip, path), 'layered-image');
    const foregroundPath = this.mediaPath(numericReference(layered.foreground));
    const backgroundPath = this.mediaPath(numericReference(layered.background));
    const foreground = foregroundPath ? await this.image(foregroundPath) : null;
    const background = backgroundPath ? await this.image(backgroundPath) : null;
    if (!foreground || !foregroundPath)
      return background && backgroundPath ? toStorableIcon(background, backgroundPath) : null;
    if (!background || !backgroundPath) return toStorableIcon(foreground, foregroundPath);
    return composeAdaptiveIcon(
      { bytes: foreground, path: foregroundPath },
      { bytes: background, path: backgroundPath },
    );
  }
}

async function openResources(zip: ZipIndex, warnings: string[]): Promise<ResourceLookup | null> {
  const entry = zip.entries.get(RESOURCES_INDEX);
  if (!entry) {
    warnings.push('安装包中没有 resources.index，无法读取应用名称和图标');
    return null;
  }
  if (entry.uncompressedSize > MAX_INDEX_BYTES) {
    warnings.push('resources.index 过大，未读取应用名称和图标');
    return null;
  }
  try {
    return openResourceIndex(await zip.readEntry(RESOURCES_INDEX, MAX_INDEX_BYTES));
  } catch (error) {
    if (!(error instanceof ResourceIndexError)) throw error;
    warnings.push('resources.index 格式无法读取，未读取应用名称和图标');
    return null;
  }
}

/** Reads a string/media reference of module.json: its `…Id` number, else the number in `$string:123`. */
function referenceId(app: Json, key: string): number | null {
  return integerAt(app, `${key}Id`) ?? numericReference(app[key]);
}

/** Inspects one HarmonyOS module file: a .hap (entry or feature) or an .hsp (shared). */
export async function inspectHap(zip: ZipIndex): Promise<HapInspection> {
  const warnings: string[] = [];
  const { app, module } = await readModuleJson(zip);
  const resources = new ResourceReader(zip, await openResources(zip, warnings));
  let localizedLabels: Record<string, string> = {};
  let icon: PackageIcon | null = null;
  try {
    localizedLabels = resources.strings(referenceId(app, 'label'));
    icon = await resources.icon(referenceId(app, 'icon'));
  } catch (error) {
    if (!(error instanceof ResourceIndexError)) throw error;
    warnings.push('resources.index 格式无法读取，未读取应用名称和图标');
  }
  const literalLabel = stringAt(app, 'label');
  const label = localizedLabels[''] ?? (literalLabel && !literalLabel.startsWith('$') ? literalLabel : null);
  if (label !== null) localizedLabels[''] = label;
  if (!icon && warnings.length === 0) warnings.push('应用图标无法读取，已使用默认图标');
  const { signature, profile } = await readHapSigning(zip);
  if (!signature) warnings.push('安装包未签名，设备无法安装');
  const info = moduleOf(module, null);
  const inspection: HapInspection = {
    kind: info.type === 'shared' ? 'hsp' : 'hap',
    fileSize: zip.fileSize,
    warnings,
    bundleName: stringAt(app, 'bundleName') as string,
    bundleType: stringAt(app, 'bundleType'),
    versionName: stringAt(app, 'versionName'),
    versionCode: integerAt(app, 'versionCode'),
    vendor: stringAt(app, 'vendor'),
    label,
    localizedLabels,
    icon,
    deviceTypes: info.deviceTypes,
    minApiVersion: harmonyApiVersion(app.minAPIVersion),
    targetApiVersion: harmonyApiVersion(app.targetAPIVersion),
    compileSdkVersion: stringAt(app, 'compileSdkVersion'),
    debug: app.debug === true || stringAt(app, 'buildMode') === 'debug',
    buildMode: stringAt(app, 'buildMode'),
    modules: [info],
    signature,
    profile,
  };
  inspection.facts = harmonyFacts(zip, inspection, requestedPermissions(module));
  return inspection;
}

/** module.json `module.requestPermissions[].name`: what the module asks for (user_grant ones at run time). */
function requestedPermissions(module: Json): string[] {
  const requested = Array.isArray(module.requestPermissions) ? module.requestPermissions : [];
  return requested.flatMap((entry) => {
    const name = entry && typeof entry === 'object' ? (entry as Json).name : undefined;
    return typeof name === 'string' ? [name] : [];
  });
}
