import { build as buildPlist } from 'plist';
import { isPlistDict, parsePlistDict, plistString, type PlistDict } from '@release/inspect/plist.ts';
import { isBytes, type AppFiles } from './app-files.ts';
import { bundlesOf, mainAppRoot, type SignedBundle } from './bundle-signer.ts';

/**
 * What a re-signing changes besides the signature (the options studios use): the main bundle id (nested apps and
 * extensions whose ids start with the old one follow the new prefix), the display name, version and build, and
 * removing the watch app, the extensions or UISupportedDevices. Applied to the held Info.plists before signing; the
 * removed bundles' entries are left out of the new ipa.
 */
export interface ResignOptions {
  bundleId?: string;
  displayName?: string;
  version?: string;
  build?: string;
  removeWatchApp?: boolean;
  removeExtensions?: boolean;
  removeSupportedDevices?: boolean;
  /** SHA-1 code directories kept or dropped by each bundle's minimum OS (see BundleSigningInput). */
  hashesByMinimumOs?: boolean;
  /** The main app's entitlements as plist XML, signed instead of the profile's (each must be allowed by it). */
  entitlements?: string;
}

/** What the options changed, for the new version's note. */
export interface ResignChange {
  what:
    | 'bundleId'
    | 'displayName'
    | 'version'
    | 'build'
    | 'watchApp'
    | 'extensions'
    | 'supportedDevices'
    | 'codeDirectories'
    | 'entitlements';
  from: string | null;
  to: string | null;
}

/** Folders of the main app the removals take away (with everything under them). */
export function removedFolders(root: string, options: ResignOptions): string[] {
  const folders: string[] = [];
  if (options.removeWatchApp) folders.push(`${root}Watch/`);
  if (options.removeExtensions) folders.push(`${root}PlugIns/`, `${root}Extensions/`);
  return folders;
}

const KEYS: Array<[keyof ResignOptions & ResignChange['what'], string]> = [
  ['displayName', 'CFBundleDisplayName'],
  ['version', 'CFBundleShortVersionString'],
  ['build', 'CFBundleVersion'],
];

/** `com.old.app.widget` → `com.new.app.widget` when it starts with the old main id. */
function follow(id: string, oldMain: string, newMain: string): string {
  if (id === oldMain) return newMain;
  return id.startsWith(`${oldMain}.`) ? `${newMain}${id.slice(oldMain.length)}` : id;
}

/** Rewrites companion ids a watch app or its extension carries (they name the app they belong to). */
function followCompanions(dict: PlistDict, oldMain: string, newMain: string): void {
  const companion = plistString(dict, 'WKCompanionAppBundleIdentifier');
  if (companion) dict.WKCompanionAppBundleIdentifier = follow(companion, oldMain, newMain);
  const extension = dict.NSExtension;
  const attributes = isPlistDict(extension) ? extension.NSExtensionAttributes : undefined;
  if (isPlistDict(attributes)) {
    const watchApp = plistString(attributes, 'WKAppBundleIdentifier');
    if (watchApp) attributes.WKAppBundleIdentifier = follow(watchApp, oldMain, newMain);
  }
}

/**
 * Applies the options to the held files (Info.plists rewritten, removed bundles' files deleted); answers what changed.
 * Files of removed folders that were not held are left out by the copy (see `removedFolders`).
 */
export function applyResignOptions(files: AppFiles, options: ResignOptions): ResignChange[] {
  const root = mainAppRoot(files);
  if (!root) return [];
  const changes: ResignChange[] = [];
  const folders = removedFolders(root, options);
  for (const folder of folders) {
    const names = [...files.keys()].filter((name) => name.startsWith(folder));
    for (const name of names) files.delete(name);
  }
  if (options.removeWatchApp) changes.push({ what: 'watchApp', from: null, to: null });
  if (options.removeExtensions) changes.push({ what: 'extensions', from: null, to: null });
  const mainInfo = files.get(`${root}Info.plist`);
  const main = isBytes(mainInfo) ? parsePlistDict(mainInfo) : null;
  const oldMain = main ? plistString(main, 'CFBundleIdentifier') : null;
  for (const bundle of bundlesOf(files, root)) {
    const path = `${bundle}Info.plist`;
    const bytes = files.get(path);
    const dict = isBytes(bytes) ? parsePlistDict(bytes) : null;
    if (!dict) continue;
    const isMain = bundle === root;
    const isFramework = bundle.endsWith('.framework/');
    let changed = false;
    const set = (key: string, value: string | undefined, what: ResignChange['what'] | null) => {
      if (value === undefined || dict[key] === value) return;
      if (what) changes.push({ what, from: plistString(dict, key), to: value });
      dict[key] = value;
      changed = true;
    };
    if (options.bundleId && oldMain && !isFramework) {
      const id = plistString(dict, 'CFBundleIdentifier');
      if (id) set('CFBundleIdentifier', follow(id, oldMain, options.bundleId), isMain ? 'bundleId' : null);
      const before = JSON.stringify(dict);
      followCompanions(dict, oldMain, options.bundleId);
      changed ||= JSON.stringify(dict) !== before;
    }
    if (isMain) for (const [option, key] of KEYS) set(key, options[option] as string | undefined, option);
    else if (!isFramework) {
      // Extensions must carry the app's version and build (App Store and installers check they match).
      set('CFBundleShortVersionString', options.version, null);
      set('CFBundleVersion', options.build, null);
    }
    if (options.removeSupportedDevices && 'UISupportedDevices' in dict) {
      delete dict.UISupportedDevices;
      changed = true;
      if (isMain) changes.push({ what: 'supportedDevices', from: null, to: null });
    }
    if (changed) files.set(path, Buffer.from(buildPlist(dict as never), 'utf8'));
  }
  return changes;
}

/**
 * What choosing code directories by minimum OS changed, bundle by bundle (`Demo.app、Kit.framework 只保留 SHA-256`);
 * null when every bundle kept what it had.
 */
export function codeDirectoryChange(signed: SignedBundle[]): ResignChange | null {
  const name = (bundle: SignedBundle) => bundle.path.split('/').at(-2) ?? bundle.path;
  const changed = signed.filter((bundle) => bundle.hashes !== bundle.sourceHashes);
  if (changed.length === 0) return null;
  const dropped = changed.filter((bundle) => bundle.hashes === 'sha256').map(name);
  const kept = changed.filter((bundle) => bundle.hashes === 'sha1+sha256').map(name);
  const parts = [
    dropped.length > 0 ? `${dropped.join('、')} 只保留 SHA-256` : null,
    kept.length > 0 ? `${kept.join('、')} 加上 SHA-1` : null,
  ];
  return { what: 'codeDirectories', from: null, to: parts.filter(Boolean).join('，') };
}

/** The options as stored and compared (keys sorted, empty ones left out): equal asks give equal text. */
export function normalizedOptions(options: ResignOptions | undefined): ResignOptions {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(options ?? {}).sort()) {
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined || value === false || value === '') continue;
    out[key] = typeof value === 'string' ? value.trim() : value;
  }
  return out as ResignOptions;
}

/** The given entitlements as a dictionary; null when none were given or they are not a plist dictionary. */
export function givenEntitlements(options: ResignOptions): PlistDict | null {
  return options.entitlements ? parsePlistDict(Buffer.from(options.entitlements, 'utf8')) : null;
}
