import { normalizeUdid, InstallMessages, LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES, type InstallAppBrief, type InstallPage, type InstallPageQuery, type InstallVersion } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { UrlSigner } from '../../storage/url-signer.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { LoginGuardRepository } from '../auth/login-guard.repository.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AppsRepository } from '../apps/apps.repository.ts';
import { DOWNLOAD_LINK_TTL_SEC, isHtmlFile, type VersionPresenter } from '../versions/version-presenter.ts';
import type { VersionRecord, VersionsRepository } from '../versions/versions.repository.ts';
import { itmsServicesLink } from './ota-manifest.ts';

const PAGE_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const RECENT_VERSIONS = 20;
export const MANIFEST_PATH = '/api/app_version/manifest.plist';
/** 打开 for an html package: the page itself, shown sandboxed (install.routes.ts). */
export const OPEN_HTML_PATH = '/api/app_version/open';

/** Whether an ad-hoc/development profile lists the visitor's device (UDIDs compare case-insensitively); null when unknown or not such a profile. */
function deviceIncluded(profile: { type?: string; provisionedDevices?: string[] } | null | undefined, udid: string | null): boolean | null {
  if (!udid || (profile?.type !== 'ad-hoc' && profile?.type !== 'development')) return null;
  return (profile.provisionedDevices ?? []).some((listed) => listed.toLowerCase() === udid.toLowerCase());
}

export interface InstallDeps {
  apps: AppsRepository;
  versions: VersionsRepository;
  policy: AppsPolicy;
  guard: LoginGuardRepository;
  box: SecretBox;
  signer: UrlSigner;
  clock: Clock;
}

/** The public install page: app and versions behind the install password (SPEC §1, §2 download page). */
export function createInstallService(deps: InstallDeps) {
  const { apps, versions, policy, guard, box, signer, clock } = deps;

  function pageToken(appId: number): string {
    const expires = clock.now() + PAGE_TOKEN_TTL_MS;
    return `${appId}.${expires}.${signer.sign(['install-page', appId, expires])}`;
  }
  function isPageTokenValid(token: string | undefined, appId: number): boolean {
    const [id, expires, sig] = (token ?? '').split('.');
    return Number(id) === appId && Number(expires) > clock.now() && !!sig && signer.verify(['install-page', appId, Number(expires)], sig);
  }

  async function assertAllowed(app: { id: number; password: string }, query: InstallPageQuery, token: string | undefined, ip: string, viewer: AuthUser | null) {
    const preview = query.preview === 'true' || query.preview === '1';
    if (preview && viewer && (await policy.accessOf(viewer, app.id)) && (await policy.accessOf(viewer, app.id)) !== 'view') return;
    if (isPageTokenValid(token, app.id)) return;
    if (!query.password) throw AppError.badRequest(InstallMessages.passwordRequired);
    const guardKey = `install:${app.id}`;
    if ((await guard.countForPair(guardKey, ip, clock.now() - LOGIN_FAILURE_WINDOW_MS)) >= LOGIN_MAX_FAILURES) throw AppError.tooManyRequests(InstallMessages.tooManyTries);
    if (box.open(app.password) !== query.password) {
      await guard.record(guardKey, ip, clock.now());
      throw AppError.badRequest(InstallMessages.passwordWrong);
    }
  }

  function manifestUrl(present: VersionPresenter, versionId: number): string {
    const expires = clock.now() + DOWNLOAD_LINK_TTL_SEC * 1000;
    return present.apiUrl(`${MANIFEST_PATH}?id=${versionId}&expires=${expires}&sig=${signer.sign(['manifest', versionId, expires])}`);
  }
  function openHtmlUrl(present: VersionPresenter, versionId: number): string {
    const expires = clock.now() + DOWNLOAD_LINK_TTL_SEC * 1000;
    return present.apiUrl(`${OPEN_HTML_PATH}?id=${versionId}&expires=${expires}&sig=${signer.sign(['open-html', versionId, expires])}`);
  }

  async function toInstallVersion(v: VersionRecord, present: VersionPresenter, udid: string | null): Promise<InstallVersion> {
    const metadata = JSON.parse(v.metadata) as { provisioningProfile?: { type?: string; provisionedDevices?: string[] } | null; minimumOsVersion?: string | null; minSdkVersion?: number | null };
    return {
      id: v.id,
      indexNo: v.index_no,
      nativePackageType: v.native_package_type,
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
      installUrl: v.native_package_type === 'ios' ? itmsServicesLink(manifestUrl(present, v.id)) : null,
      openUrl: isHtmlFile(v.file_name) ? openHtmlUrl(present, v.id) : null,
      profileType: metadata.provisioningProfile?.type ?? null,
      deviceIncluded: deviceIncluded(metadata.provisioningProfile, udid),
      minimumOs: metadata.minimumOsVersion ?? (metadata.minSdkVersion ? `Android API ${metadata.minSdkVersion}` : null),
      attachFiles: await present.attachments(v.attach_files),
    };
  }

  return {
    async page(query: InstallPageQuery, context: { token?: string; ip: string; viewer: AuthUser | null; present: VersionPresenter; secure: boolean }): Promise<InstallPage> {
      const app = await apps.findByPath(query.url);
      if (!app) throw AppError.notFound(InstallMessages.appMissing);
      await assertAllowed(app, query, context.token, context.ip, context.viewer);
      const recent = (await versions.list({ appId: app.id, pageNo: 1, pageSize: RECENT_VERSIONS })).rows;
      const wanted = query.id ?? query.packId;
      const first = wanted ? await versions.findById(wanted) : undefined;
      const ordered = first && first.app_id === app.id ? [first, ...recent.filter((v) => v.id !== first.id)] : recent;
      return {
        app: { appName: app.app_name, appType: app.app_type, appIcon: app.app_icon, description: app.description, path: app.path },
        versions: await Promise.all(ordered.map((v) => toInstallVersion(v, context.present, query.udid ? normalizeUdid(query.udid, 'ios') : null))),
        token: pageToken(app.id),
        secure: context.secure,
      };
    },

    verifyManifest(query: { id: number; expires: number; sig: string }): boolean {
      return query.expires > clock.now() && signer.verify(['manifest', query.id, query.expires], query.sig);
    },

    /** The password gate's heading: the app's name and icon, without the password (nothing else of the app). */
    async brief(path: string): Promise<InstallAppBrief> {
      const app = await apps.findByPath(path);
      if (!app) throw AppError.notFound(InstallMessages.appMissing);
      return { appName: app.app_name, appIcon: app.app_icon, path: app.path };
    },

    verifyOpenHtml(query: { id: number; expires: number; sig: string }): boolean {
      return query.expires > clock.now() && signer.verify(['open-html', query.id, query.expires], query.sig);
    },

    findVersion: (id: number) => versions.findById(id),

    /** Whether an install page token opens this app's page (the visitor knows its password). */
    isPageTokenValid,
  };
}
export type InstallService = ReturnType<typeof createInstallService>;
