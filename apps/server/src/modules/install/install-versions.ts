import {
  isDebugSigned,
  isInstallableKind,
  kindOfFileName,
  nativePackageTypes,
  type InstallVersion,
  type NativePackageType,
} from '@release/contract';
import type { Links } from '../../http/links.ts';
import { attachmentLinks } from '../versions/version-row.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import { buildDetails } from './build-details.ts';
import {
  HarmonyInstallMessages,
  harmonyRoute,
  hdcCommand,
  profileDevices,
  type StoredModule,
  storedModules,
  storeManifestLink,
  type SignedManifest,
} from './harmony-install.ts';
import type { LinkHolder, SignedLinks } from './install-links.ts';
import { itmsServicesLink } from './ota-manifest.ts';
import { packageKindOf } from './package-kind.ts';

const RECENT_VERSIONS = 20;
/** How far back one platform is searched for an installable build (page size, pages). */
const INSTALLABLE_PAGE = 50;
const INSTALLABLE_PAGES = 10;

/** Whether an ad-hoc/development profile lists the visitor's device (UDIDs compare case-insensitively); null when unknown or not such a profile. */
function deviceIncluded(
  profile: { type?: string; provisionedDevices?: string[] } | null | undefined,
  udid: string | null,
): boolean | null {
  if (!udid || (profile?.type !== 'ad-hoc' && profile?.type !== 'development')) return null;
  return (profile.provisionedDevices ?? []).some((listed) => listed.toLowerCase() === udid.toLowerCase());
}

/** The builds an install page shows, each as the page offers it (links, HarmonyOS modules, profile hints). */
export function createInstallVersions(deps: {
  versions: VersionsDirectory;
  links: SignedLinks;
  /** The `sign` of the build's manifest signed elsewhere (an attachment), or why there is none to use. */
  signedManifest: (v: VersionRecord, modules: StoredModule[]) => Promise<SignedManifest | { problem: string }>;
}) {
  const { versions } = deps;
  const { signedUrl } = deps.links;

  /** A HarmonyOS build's modules with their links, its devices, hdc command and enterprise install link. */
  async function harmonyFields(v: VersionRecord, present: Links, stamp: string, secure: boolean, holder: LinkHolder) {
    const modules = storedModules(v);
    const route = modules.length ? harmonyRoute(v) : null;
    let installHint: string | null = null;
    let storeUrl: string | null = null;
    if (route === 'manifest') {
      const signed = await deps.signedManifest(v, modules);
      if ('problem' in signed) installHint = signed.problem;
      else if (!secure) installHint = HarmonyInstallMessages.needsHttps;
      else storeUrl = storeManifestLink(signedUrl('harmony-manifest', present, v.id, stamp, holder));
    }
    return {
      modules: modules.map((m, index) => ({
        name: m.name,
        type: m.type,
        fileName: m.fileName,
        url: signedUrl('harmony-module', present, v.id, stamp, holder, `&module=${index}`),
      })),
      devices: profileDevices(v),
      hdcCommand: route === 'hdc' ? hdcCommand(modules) : null,
      installHint,
      storeUrl,
    };
  }

  /** A device takes it itself: its kind says so, or its modules are installed one by one (a HarmonyOS debug or enterprise set). */
  const isInstallable = (v: VersionRecord): boolean =>
    isInstallableKind(packageKindOf(v)) || (harmonyRoute(v) !== null && storedModules(v).length > 0);

  /** The newest build of one platform that a device installs itself (an .aab is skipped), when the app has one. */
  async function latestInstallable(appId: number, type: NativePackageType): Promise<VersionRecord | undefined> {
    for (let page = 0; page < INSTALLABLE_PAGES; page += 1) {
      const rows = await versions.newestOfType(appId, type, page * INSTALLABLE_PAGE, INSTALLABLE_PAGE);
      const found = rows.find(isInstallable);
      if (found || rows.length < INSTALLABLE_PAGE) return found;
    }
    return undefined;
  }

  /** The recent builds, and each platform's latest installable one when it is older than those (newest first). */
  async function pageVersions(appId: number): Promise<VersionRecord[]> {
    const recent = (await versions.list({ appId, pageNo: 1, pageSize: RECENT_VERSIONS })).rows;
    const missing = nativePackageTypes.filter(
      (type) => !recent.some((v) => v.native_package_type === type && isInstallable(v)),
    );
    // A full page may hide older builds of a platform; a shorter one is every build the app has.
    const older = recent.length < RECENT_VERSIONS ? [] : missing;
    const found = (await Promise.all(older.map((type) => latestInstallable(appId, type)))).filter(
      (v): v is VersionRecord => v !== undefined,
    );
    return [...recent, ...found.filter((v) => !recent.some((r) => r.id === v.id))].sort(
      (a, b) => b.index_no - a.index_no,
    );
  }

  async function toInstallVersion(
    v: VersionRecord,
    present: Links,
    udid: string | null,
    stamp: string,
    secure: boolean,
    withDetails: boolean,
    holder: LinkHolder,
  ): Promise<InstallVersion> {
    const packageKind = packageKindOf(v);
    const { metadata } = v;
    const harmony = await harmonyFields(v, present, stamp, secure, holder);
    const minimumOs =
      metadata.minimumOsVersion ?? (metadata.minSdkVersion ? `Android API ${metadata.minSdkVersion}` : null);
    return {
      id: v.id,
      indexNo: v.index_no,
      nativePackageType: v.native_package_type,
      packageKind,
      installable: isInstallable(v),
      fileName: v.file_name,
      appVersion: v.app_version,
      build: v.build,
      displayName: v.display_name,
      bundleId: v.bundle_id,
      appSize: v.app_size,
      description: v.description,
      createTime: v.create_time,
      expireDate: v.expire_date,
      iconUrl: present.iconUrl(v.icon_key),
      // Through our own route, which counts it and sends the browser on to the stored file (on S3 or a CDN too).
      downloadUrl: signedUrl('download', present, v.id, stamp, holder),
      installUrl:
        v.native_package_type === 'ios'
          ? itmsServicesLink(signedUrl('manifest', present, v.id, stamp, holder))
          : harmony.storeUrl,
      openUrl: kindOfFileName(v.file_name) === 'html' ? signedUrl('open-html', present, v.id, stamp, holder) : null,
      profileType: metadata.provisioningProfile?.type ?? null,
      debugSigned: isDebugSigned(packageKind, metadata),
      deviceIncluded: deviceIncluded(metadata.provisioningProfile, udid),
      minimumOs,
      attachFiles: await attachmentLinks(present, v.attach_files),
      details: withDetails ? buildDetails(v, minimumOs) : null,
      modules: harmony.modules,
      devices: harmony.devices,
      hdcCommand: harmony.hdcCommand,
      installHint: harmony.installHint,
    };
  }

  return { toInstallVersion, pageVersions };
}
