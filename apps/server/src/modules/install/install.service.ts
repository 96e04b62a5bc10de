import { createHash } from 'node:crypto';
import {
  isDebugSigned,
  isInstallableKind,
  kindOfFileName,
  nativePackageTypes,
  normalizeUdid,
  InstallMessages,
  type InstallAppBrief,
  type InstallBoot,
  type InstallPage,
  type InstallPageQuery,
  type InstallVersion,
  type NativePackageType,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { UrlSigner } from '../../storage/url-signer.ts';
import type { MediaLinks } from '../../http/media-links.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AttemptLimiter } from '../auth/attempt-limiter.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AppsLookup } from '../apps/apps-directory.ts';
import type { ShortChanges } from '@release/contract';
import { DOWNLOAD_LINK_TTL_SEC, type Links } from '../../http/links.ts';
import { attachmentLinks } from '../versions/version-row.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import type { InstallAccessRepository } from './install-access.repository.ts';
import { itmsServicesLink } from './ota-manifest.ts';
import { buildDetails } from './build-details.ts';
import { packageKindOf } from './package-kind.ts';
import {
  HarmonyInstallMessages,
  harmonyRoute,
  hdcCommand,
  profileDevices,
  type StoredModule,
  storedModules,
  storeManifestLink,
} from './harmony-install.ts';

const PAGE_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const RECENT_VERSIONS = 20;
/** How far back one platform is searched for an installable build (page size, pages). */
const INSTALLABLE_PAGE = 50;
const INSTALLABLE_PAGES = 10;
export const MANIFEST_PATH = '/api/app_version/manifest.plist';
/** 打开 for an html package: the page itself, shown sandboxed (install.routes.ts). */
export const OPEN_HTML_PATH = '/api/app_version/open';
/** A HarmonyOS build's module (`&module=<index>`), and its enterprise install manifest. */
export const HARMONY_MODULE_PATH = '/api/app_version/harmony_module';
export const HARMONY_MANIFEST_PATH = '/api/app_version/harmony_manifest.json5';
const signedPaths = {
  manifest: MANIFEST_PATH,
  'open-html': OPEN_HTML_PATH,
  'harmony-module': HARMONY_MODULE_PATH,
  'harmony-manifest': HARMONY_MANIFEST_PATH,
} as const;

/** An app as the install password gate sees it: its id and its stored (sealed) install password. */
type Gated = { id: number; password: string };
export type SignedKind = keyof typeof signedPaths;

/** Whether an ad-hoc/development profile lists the visitor's device (UDIDs compare case-insensitively); null when unknown or not such a profile. */
function deviceIncluded(
  profile: { type?: string; provisionedDevices?: string[] } | null | undefined,
  udid: string | null,
): boolean | null {
  if (!udid || (profile?.type !== 'ad-hoc' && profile?.type !== 'development')) return null;
  return (profile.provisionedDevices ?? []).some((listed) => listed.toLowerCase() === udid.toLowerCase());
}

export interface InstallDeps {
  apps: AppsLookup;
  access: InstallAccessRepository;
  versions: VersionsDirectory;
  policy: AppsPolicy;
  guard: AttemptLimiter;
  box: SecretBox;
  signer: UrlSigner;
  /** Signs the app icon of the password gate and its boot data (relative links; the page is ours). */
  mediaLinks: MediaLinks;
  clock: Clock;
  /** Whether the app takes tester feedback (the tracker's app setting). */
  feedbackOpen: (appId: number) => Promise<boolean>;
  /**
   * What changed in a build (issue 19), shown under the newest build of each platform: since the build of it the
   * visitor last downloaded, or since the one before it.
   */
  changesOf?: (
    version: VersionRecord,
    who: { userId: number | null; device: string | null },
  ) => Promise<ShortChanges | null>;
  /** The `sign` of the build's manifest signed elsewhere (an attachment), or why there is none to use. */
  signedManifest: (v: VersionRecord, modules: StoredModule[]) => Promise<{ sign: string } | { problem: string }>;
}

/** The public install page: app and versions behind the install password (SPEC §1, §2 download page). */
export function createInstallService(deps: InstallDeps) {
  const { apps, access, versions, policy, guard, box, signer, clock, mediaLinks } = deps;
  const icon = (stored: string | null) => mediaLinks.signed(stored);

  /**
   * What the remembered pass and the signed links are tied to: a digest of the current install password (never the
   * password itself), so changing the password ends every pass and link handed out before.
   */
  function passwordStamp(app: Gated): string {
    return createHash('sha256')
      .update(`install-password\n${box.open(app.password)}`)
      .digest('base64url');
  }
  function pageToken(app: Gated): string {
    const expires = clock.now() + PAGE_TOKEN_TTL_MS;
    return `${app.id}.${expires}.${signer.sign(['install-page', app.id, expires, passwordStamp(app)])}`;
  }
  /** valid; stale (this app's, unexpired, but not signed for the current password); or absent (none, expired, another app's). */
  function pageTokenState(token: string | undefined, app: Gated): 'valid' | 'stale' | 'absent' {
    const [id, expires, sig] = (token ?? '').split('.');
    if (Number(id) !== app.id || !(Number(expires) > clock.now()) || !sig) return 'absent';
    return signer.verify(['install-page', app.id, Number(expires), passwordStamp(app)], sig) ? 'valid' : 'stale';
  }
  const isPageTokenValid = (token: string | undefined, app: Gated): boolean => pageTokenState(token, app) === 'valid';

  /**
   * Who may see the page: a signed-in member of the app (view or edit) or an admin without the password; anyone else
   * with the remembered pass or the password (ten wrong ones from an address lock it for a while).
   */
  async function assertAllowed(
    app: Gated,
    query: InstallPageQuery,
    token: string | undefined,
    ip: string,
    viewer: AuthUser | null,
  ): Promise<'password' | 'member'> {
    if (viewer && (await policy.accessOf(viewer, app.id))) return 'member';
    const pass = pageTokenState(token, app);
    if (pass === 'valid') return 'password';
    if (!query.password)
      throw AppError.badRequest(pass === 'stale' ? InstallMessages.passwordChanged : InstallMessages.passwordRequired);
    // Counted (per app and address, and per address) before it is compared; a wrong one stays counted.
    const admission = await guard.admit('install', String(app.id), ip);
    if (!admission.allowed)
      throw AppError.tooManyRequests(
        InstallMessages.tooManyTries(Math.max(1, Math.ceil(admission.retryAfterMs / 60_000))),
      );
    if (box.open(app.password) !== query.password) throw AppError.badRequest(InstallMessages.passwordWrong);
    await admission.guess.succeeded();
    return 'password';
  }

  type AppRow = NonNullable<Awaited<ReturnType<AppsLookup['findByPath']>>>;
  /** The app a link names: by its path (password page), or by its public path while the password-free link is on. */
  async function appOfLink(url: string): Promise<{ app: AppRow; isPublic: boolean }> {
    const app = await apps.findByPath(url);
    if (app) return { app, isPublic: false };
    const open = await access.findByPublicPath(url);
    if (!open) throw AppError.notFound(InstallMessages.appMissing);
    if (open.public_install !== 1) throw AppError.notFound(InstallMessages.publicClosed);
    return { app: open, isPublic: true };
  }

  /** A manifest, open or module link of one version, signed for the app's current install password. */
  function signedUrl(
    kind: SignedKind,
    present: Links,
    versionId: number,
    stamp: string,
    device?: string,
    extra = '',
  ): string {
    const expires = clock.now() + DOWNLOAD_LINK_TTL_SEC * 1000;
    // The page's device id rides along unsigned: it only tells the install statistics which device counted.
    const counted = device ? `&d=${device}` : '';
    return present.apiUrl(
      `${signedPaths[kind]}?id=${versionId}&expires=${expires}&sig=${signer.sign([kind, versionId, expires, stamp])}${counted}${extra}`,
    );
  }

  /** A HarmonyOS build's modules with their links, its devices, hdc command and enterprise install link. */
  async function harmonyFields(v: VersionRecord, present: Links, stamp: string, secure: boolean) {
    const modules = storedModules(v);
    const route = modules.length ? harmonyRoute(v) : null;
    let installHint: string | null = null;
    let storeUrl: string | null = null;
    if (route === 'manifest') {
      const signed = await deps.signedManifest(v, modules);
      if ('problem' in signed) installHint = signed.problem;
      else if (!secure) installHint = HarmonyInstallMessages.needsHttps;
      else storeUrl = storeManifestLink(signedUrl('harmony-manifest', present, v.id, stamp));
    }
    return {
      modules: modules.map((m, index) => ({
        name: m.name,
        type: m.type,
        fileName: m.fileName,
        url: signedUrl('harmony-module', present, v.id, stamp, undefined, `&module=${index}`),
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
    withDetails = false,
    device?: string,
  ): Promise<InstallVersion> {
    const packageKind = packageKindOf(v);
    const { metadata } = v;
    const harmony = await harmonyFields(v, present, stamp, secure);
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
      downloadUrl: await present.fileUrl(v.file_key, v.file_name),
      installUrl:
        v.native_package_type === 'ios'
          ? itmsServicesLink(signedUrl('manifest', present, v.id, stamp, device))
          : harmony.storeUrl,
      openUrl: kindOfFileName(v.file_name) === 'html' ? signedUrl('open-html', present, v.id, stamp) : null,
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

  return {
    async page(
      query: InstallPageQuery,
      context: {
        token?: string;
        ip: string;
        viewer: AuthUser | null;
        present: Links;
        secure: boolean;
        /** The page's device id (install statistics), put into the iOS manifest links. */
        device?: string;
      },
    ): Promise<InstallPage> {
      const { app, isPublic } = await appOfLink(query.url);
      const openedBy = isPublic ? 'public' : await assertAllowed(app, query, context.token, context.ip, context.viewer);
      const recent = await pageVersions(app.id);
      const wanted = query.id ?? query.packId;
      const first = wanted ? await versions.findById(wanted) : undefined;
      const ordered = first && first.app_id === app.id ? [first, ...recent.filter((v) => v.id !== first.id)] : recent;
      const stamp = passwordStamp(app);
      return {
        askedVersionMissing: wanted !== undefined && ordered[0]?.id !== wanted,
        // A public page names its own link, never the password page's.
        app: {
          appName: app.app_name,
          appType: app.app_type,
          appIcon: context.present.mediaUrl(app.app_icon),
          description: app.description,
          path: query.url,
        },
        versions: await Promise.all(
          ordered.map(async (v, index) => ({
            ...(await toInstallVersion(
              v,
              context.present,
              query.udid ? normalizeUdid(query.udid, 'ios') : null,
              stamp,
              context.secure,
              v.id === wanted,
              context.device,
            )),
            // The first build shown of each platform (the one offered) says what it changed: 本版本更新, or to a
            // returning tester 自上次安装以来的变化.
            changes:
              deps.changesOf && ordered.findIndex((o) => o.native_package_type === v.native_package_type) === index
                ? await deps
                    .changesOf(v, { userId: context.viewer?.userId ?? null, device: context.device ?? null })
                    .catch(() => null)
                : null,
          })),
        ),
        // The public link is open to anyone: its visitors get no pass to the password page.
        token: isPublic ? '' : pageToken(app),
        secure: context.secure,
        access: openedBy,
        feedback: await deps.feedbackOpen(app.id),
      };
    },

    /** The version a signed manifest or open link names, when the link is unexpired and signed for the app's current install password. */
    async signedVersion(
      kind: SignedKind,
      query: { id: number; expires: number; sig: string },
    ): Promise<VersionRecord | null> {
      if (!(query.expires > clock.now())) return null;
      const version = await versions.findById(query.id);
      const app = version ? await apps.findById(version.app_id) : undefined;
      return version && app && signer.verify([kind, query.id, query.expires, passwordStamp(app)], query.sig)
        ? version
        : null;
    },

    /** The password gate's heading: the app's name and icon, without the password (nothing else of the app). */
    async brief(path: string): Promise<InstallAppBrief> {
      const { app } = await appOfLink(path);
      return { appName: app.app_name, appIcon: icon(app.app_icon), path };
    },

    /** What install.html is served with for a link: the page can draw the password box before any call. */
    async boot(path: string): Promise<InstallBoot> {
      const app = path.length <= 64 ? await apps.findByPath(path) : undefined;
      if (app)
        return { link: 'password', message: null, app: { appName: app.app_name, appIcon: icon(app.app_icon), path } };
      const open = path.length <= 64 ? await access.findByPublicPath(path) : undefined;
      if (!open) return { link: 'missing', message: InstallMessages.appMissing, app: null };
      if (open.public_install !== 1) return { link: 'closed', message: InstallMessages.publicClosed, app: null };
      return { link: 'public', message: null, app: { appName: open.app_name, appIcon: icon(open.app_icon), path } };
    },

    /**
     * The app and build a visitor of a link may act on (send feedback, count a download): a signed-in member, the
     * holder of the page's pass, or anyone on an open password-free link. Refused like the page otherwise (the pass is
     * asked for, never the password itself); a build that is not the link's app's answers null.
     */
    async visitorTarget(
      url: string,
      versionId: number,
      context: { token?: string; viewer: AuthUser | null },
    ): Promise<{ app: { id: number; name: string }; version: VersionRecord | null }> {
      const { app, isPublic } = await appOfLink(url);
      const member = context.viewer ? Boolean(await policy.accessOf(context.viewer, app.id)) : false;
      if (!isPublic && !member) {
        const pass = pageTokenState(context.token, app);
        if (pass !== 'valid')
          throw AppError.badRequest(
            pass === 'stale' ? InstallMessages.passwordChanged : InstallMessages.passwordRequired,
          );
      }
      const version = await versions.findById(versionId);
      return {
        app: { id: app.id, name: app.app_name },
        version: version && version.app_id === app.id ? version : null,
      };
    },

    /** Whether an install page token opens this app's page (the visitor knows its password). */
    isPageTokenValid,

    signedManifest: deps.signedManifest,

    /** The download links of a HarmonyOS build's modules, signed for the app's current install password (packageUrl). */
    async moduleLinks(present: Links, v: VersionRecord): Promise<(index: number) => string> {
      const app = await apps.findById(v.app_id);
      if (!app) throw AppError.notFound(InstallMessages.appMissing);
      const stamp = passwordStamp(app);
      return (index) => signedUrl('harmony-module', present, v.id, stamp, undefined, `&module=${index}`);
    },
  };
}
export type InstallService = ReturnType<typeof createInstallService>;
