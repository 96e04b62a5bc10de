/**
 * The one table of package kinds: what each kind of package file is called, which platform it is, how it is served
 * and what the install page offers for it. Every place that knows kinds reads this table; adding a kind is a parser
 * in the inspector and a row here. No zod: the install page's small entry imports this file (through
 * `@release/contract/install-page`).
 */

/** SPEC §3 platforms, in the order pages list them. */
export const nativePackageTypes = ['ios', 'android', 'web', 'mac', 'harmony'] as const;
export type NativePackageType = (typeof nativePackageTypes)[number];

/** Platform names in sentences and tabs (iOS 2.1.0 (210) 已发布). */
export const platformNames: Record<NativePackageType, string> = {
  ios: 'iOS',
  android: 'Android',
  web: 'Web',
  mac: 'Mac',
  harmony: 'HarmonyOS',
};

/** Names where room is short (the console's package-type filter shares a phone's width among all platforms). */
export const platformShortNames: Record<NativePackageType, string> = {
  ios: 'iOS',
  android: 'Android',
  web: 'Web',
  mac: 'Mac',
  harmony: '鸿蒙',
};

/** Platform names in chat messages (Lark cards, WeCom news: `2.3.0 (230) · Android · 上传人 …`); web and mac as their tags. */
export const platformMessageNames: Record<NativePackageType, string> = {
  ios: 'iOS',
  android: 'Android',
  web: 'WEB',
  mac: 'MAC',
  harmony: 'HarmonyOS',
};

/**
 * The groups of builds a workflow item is bound to and the version pickers offer (SPEC bindVersions: ipa, apk, zip;
 * hap for HarmonyOS): every platform falls in one group, named by its tag.
 */
export const boundVersionGroups = ['ipa', 'apk', 'zip', 'hap'] as const;
export type BoundVersionGroup = (typeof boundVersionGroups)[number];
export const boundGroupOf: Record<NativePackageType, BoundVersionGroup> = {
  ios: 'ipa',
  android: 'apk',
  web: 'zip',
  mac: 'zip',
  harmony: 'hap',
};
export const boundGroupLabels: Record<BoundVersionGroup, string> = { ipa: 'IPA', apk: 'APK', zip: 'WEB', hap: 'HAP' };

/** Builds sorted into the bound-version groups by their platform (in the given order), each made into `R`. */
export function groupByBound<T, R>(
  builds: readonly T[],
  platformOf: (build: T) => string,
  shape: (build: T) => R,
): Record<BoundVersionGroup, R[]> {
  const groups: Record<BoundVersionGroup, R[]> = { ipa: [], apk: [], zip: [], hap: [] };
  for (const build of builds) {
    const group = boundGroupOf[platformOf(build) as NativePackageType] as BoundVersionGroup | undefined;
    if (group) groups[group].push(shape(build));
  }
  return groups;
}

/** The console's tag colour of each platform (antd preset colours). */
export const platformColors: Record<NativePackageType, string> = {
  ios: 'blue',
  android: 'green',
  web: 'orange',
  mac: 'purple',
  harmony: 'red',
};

/**
 * Platforms whose packages carry an id the app's builds must keep (the iOS bundle id, the Android package name, the
 * mac bundle id, the HarmonyOS bundle name), with what the settings form and the messages call it; web has none.
 */
export const bundleIdPlatforms = ['ios', 'android', 'mac', 'harmony'] as const satisfies readonly NativePackageType[];
export type BundleIdPlatform = (typeof bundleIdPlatforms)[number];
export const bundleIdLabels: Record<BundleIdPlatform, string> = {
  ios: 'iOS Bundle ID',
  android: 'Android 包名',
  mac: 'Mac Bundle ID',
  harmony: 'HarmonyOS 包名',
};

/** What a package file is, as the inspector found it by its content (an Android App Bundle is android, but no phone installs it). */
export const packageKinds = ['ipa', 'apk', 'aab', 'mac', 'zip', 'html', 'hap', 'hsp', 'app'] as const;
export type PackageKind = (typeof packageKinds)[number];

/** The install page's action for a build a device takes: 安装 (itms-services), 下载安装, 打开 (in the browser) or 下载. */
export type InstallActionKind = 'install' | 'downloadInstall' | 'open' | 'download';

/** The icon of a kind, drawn by each page in its own set (the console's antd icons, the install page's line icons). */
export type PackageIconName = 'apple' | 'android' | 'mac' | 'archive' | 'browser' | 'harmony';

export interface PackageKindRow {
  platform: NativePackageType;
  /**
   * The file name extensions (lower case, no dot) an upload of this kind is declared by. A Mac app has none of its
   * own: it comes as a .zip and is told apart by its content (an .app bundle inside).
   */
  extensions: readonly string[];
  /** The Chinese name in messages: 扩展名为.ipa但内容是Android安装包. */
  label: string;
  /** The short tag beside a build (the platform's main kind tags the platform: IPA/iOS, APK/Android, WEB, MAC). */
  tag: string;
  /** Content-Type of a download of the file. */
  contentType: string;
  /** Its badge where a build has no icon of its own, and beside it in lists (an html page a browser, a web zip an archive). */
  icon: PackageIconName;
  /** Whether a device installs or opens it itself: not an .aab (it goes through Google Play or bundletool). */
  installable: boolean;
  /** What the install page offers for it on a device that takes it (an .aab only its file: 下载 AAB). */
  action: InstallActionKind;
  /** Why no device installs it, under its file on the install page (kinds that are not `installable`). */
  notInstallableHint?: string;
  /**
   * Files of such kinds may go up several together as one version (a HarmonyOS entry with its feature and shared
   * modules): the uploader, the CLI and upload_app take them as a set, the server packs them into one file.
   */
  uploadedTogether?: boolean;
  /**
   * A build signed for debugging installs only on the test devices its profile lists (a debug-only certificate):
   * where the inspector keeps the build's profile in its metadata and the profile type that says so (an iOS
   * development profile, a HarmonyOS debug profile). The console and the install page flag such builds 调试证书.
   */
  debugProfile?: { at: string; type: string };
}

/** The first row of each platform is its main kind: what a build of the platform is when nothing else tells. */
export const PACKAGE_KIND_TABLE: Record<PackageKind, PackageKindRow> = {
  ipa: {
    platform: 'ios',
    debugProfile: { at: 'provisioningProfile', type: 'development' },
    extensions: ['ipa'],
    label: 'iOS安装包',
    tag: 'IPA/iOS',
    contentType: 'application/octet-stream',
    icon: 'apple',
    installable: true,
    action: 'install',
  },
  apk: {
    platform: 'android',
    extensions: ['apk'],
    label: 'Android安装包',
    tag: 'APK/Android',
    contentType: 'application/vnd.android.package-archive',
    icon: 'android',

    installable: true,
    action: 'downloadInstall',
  },
  aab: {
    platform: 'android',
    extensions: ['aab'],
    label: 'Android App Bundle',
    tag: 'AAB',
    contentType: 'application/octet-stream',
    icon: 'android',
    installable: false,
    action: 'download',
    notInstallableHint: 'AAB 是上架应用市场用的包，手机不能直接安装，请安装 APK',
  },
  mac: {
    platform: 'mac',
    extensions: [],
    label: 'macOS应用压缩包',
    tag: 'MAC',
    contentType: 'application/zip',
    icon: 'mac',
    installable: true,
    action: 'download',
  },
  zip: {
    platform: 'web',
    extensions: ['zip'],
    label: '普通压缩包',
    tag: 'WEB',
    contentType: 'application/zip',
    icon: 'archive',
    installable: true,
    action: 'download',
  },
  html: {
    platform: 'web',
    extensions: ['html', 'htm'],
    label: 'HTML网页',
    tag: 'HTML',
    contentType: 'text/html; charset=utf-8',
    icon: 'browser',
    installable: true,
    action: 'open',
  },
  /** A HarmonyOS NEXT module: the entry (or a feature) module of an app, signed (docs/harmonyos.md). */
  hap: {
    platform: 'harmony',
    debugProfile: { at: 'profile', type: 'debug' },
    extensions: ['hap'],
    label: 'HarmonyOS安装包',
    tag: 'HAP/HarmonyOS',
    contentType: 'application/octet-stream',
    icon: 'harmony',
    installable: true,
    action: 'download',
    uploadedTogether: true,
  },
  /** A HarmonyOS shared module: installed with the entry module that depends on it, never alone. */
  hsp: {
    platform: 'harmony',
    debugProfile: { at: 'profile', type: 'debug' },
    extensions: ['hsp'],
    label: 'HarmonyOS共享包',
    tag: 'HSP',
    contentType: 'application/octet-stream',
    icon: 'harmony',
    installable: false,
    action: 'download',
    notInstallableHint: 'HSP 是共享模块，手机不能单独安装，请安装依赖它的 HAP',
    uploadedTogether: true,
  },
  /** A packed HarmonyOS app (every module of one version, as AppGallery takes it): no device installs the file itself. */
  app: {
    platform: 'harmony',
    debugProfile: { at: 'profile', type: 'debug' },
    extensions: ['app'],
    label: 'HarmonyOS应用包',
    tag: 'APP',
    contentType: 'application/octet-stream',
    icon: 'harmony',
    installable: false,
    action: 'download',
    notInstallableHint: 'APP 是上架应用市场用的包，手机不能直接安装，请安装 HAP',
  },
};

export function packageKindRow(kind: PackageKind): PackageKindRow {
  return PACKAGE_KIND_TABLE[kind];
}

/** Whether a build of this kind is signed for debugging only (its row's debugProfile, read from the build's metadata). */
export function isDebugSigned(kind: PackageKind, metadata: Record<string, unknown>): boolean {
  const debug = PACKAGE_KIND_TABLE[kind].debugProfile;
  const profile = debug ? metadata[debug.at] : null;
  return (
    !!debug && typeof profile === 'object' && profile !== null && (profile as { type?: unknown }).type === debug.type
  );
}

/** Whether a device installs or opens this kind of file itself (everything but an .aab). */
export function isInstallableKind(kind: PackageKind): boolean {
  return PACKAGE_KIND_TABLE[kind].installable;
}

/** What a build of the platform is when nothing else tells: ios ipa, android apk, web zip, mac mac. */
export function mainKindOf(platform: NativePackageType): PackageKind {
  return packageKinds.find((kind) => PACKAGE_KIND_TABLE[kind].platform === platform) as PackageKind;
}

/** The tag of a platform (its main kind's): IPA/iOS, APK/Android, WEB, MAC. */
export function platformTag(platform: NativePackageType): string {
  return PACKAGE_KIND_TABLE[mainKindOf(platform)].tag;
}

/** `Demo.IPA` → `ipa`; null without an extension. */
export function fileExtensionOf(fileName: string): string | null {
  return /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? null;
}

/** The kind a file name declares by its extension (never mac: a Mac app is a .zip told apart by content). */
export function kindOfFileName(fileName: string): PackageKind | null {
  const extension = fileExtensionOf(fileName);
  return extension
    ? (packageKinds.find((kind) => PACKAGE_KIND_TABLE[kind].extensions.includes(extension)) ?? null)
    : null;
}

/**
 * What a stored build is: the inspector's own word (`metadata.kind`, decided by content) when it is a kind, else
 * its file name's extension when that kind is of the build's platform (a Mac app's .zip is not a web zip), else
 * its platform's main kind. The server and the console both read a build's kind this way.
 */
export function kindOfBuild(build: {
  statedKind: unknown;
  fileName: string;
  platform: NativePackageType;
}): PackageKind {
  if ((packageKinds as readonly unknown[]).includes(build.statedKind)) return build.statedKind as PackageKind;
  const fromName = kindOfFileName(build.fileName);
  if (fromName && PACKAGE_KIND_TABLE[fromName].platform === build.platform) return fromName;
  return mainKindOf(build.platform);
}

/** Whether a file of this name may go up with others as one version (`uploadedTogether`: HarmonyOS modules). */
export function isUploadedTogether(fileName: string): boolean {
  const kind = kindOfFileName(fileName);
  return kind !== null && PACKAGE_KIND_TABLE[kind].uploadedTogether === true;
}

/** The kinds whose files go up together, with their dots (`.hap / .hsp`), for messages. */
export const uploadedTogetherExtensions: string = packageKinds
  .filter((kind) => PACKAGE_KIND_TABLE[kind].uploadedTogether)
  .flatMap((kind) => PACKAGE_KIND_TABLE[kind].extensions.map((e) => `.${e}`))
  .join(' / ');

/** Every package extension with its dot, for file pickers: .ipa, .apk, .aab, .zip, .html, .htm. */
export const packageFileExtensions: readonly string[] = packageKinds.flatMap((kind) =>
  PACKAGE_KIND_TABLE[kind].extensions.map((e) => `.${e}`),
);

/** Content-Type of a download by its file name: a package kind's, else (attachments of any kind) octet-stream. */
export function contentTypeOf(fileName: string): string {
  const kind = kindOfFileName(fileName);
  return kind ? PACKAGE_KIND_TABLE[kind].contentType : 'application/octet-stream';
}
