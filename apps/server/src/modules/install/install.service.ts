import {
  normalizeUdid,
  InstallMessages,
  type InstallAppBrief,
  type InstallBoot,
  type InstallPage,
  type InstallPageQuery,
  type ShortChanges,
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
import type { Links } from '../../http/links.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import type { InstallAccessRepository } from './install-access.repository.ts';
import type { SignedManifest, StoredModule } from './harmony-install.ts';
import { createInstallGate } from './install-gate.ts';
import { createSignedLinks, type SignedKind, type SignedQuery } from './install-links.ts';
import { createInstallVersions } from './install-versions.ts';

export {
  DOWNLOAD_PATH,
  HARMONY_MANIFEST_PATH,
  HARMONY_MODULE_PATH,
  MANIFEST_PATH,
  OPEN_HTML_PATH,
  type SignedKind,
} from './install-links.ts';

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
  signedManifest: (v: VersionRecord, modules: StoredModule[]) => Promise<SignedManifest | { problem: string }>;
}

/** The public install page: app and versions behind the install password (SPEC §1, §2 download page). */
export function createInstallService(deps: InstallDeps) {
  const { apps, access, versions, policy, guard, box, signer, clock, mediaLinks } = deps;
  const icon = (stored: string | null) => mediaLinks.signed(stored);
  const links = createSignedLinks({ signer, clock });
  const { signedUrl } = links;
  const { passwordStamp, pageToken, pageTokenState, isPageTokenValid, assertAllowed, appOfLink } = createInstallGate({
    apps,
    access,
    policy,
    guard,
    box,
    signer,
    clock,
  });
  const { toInstallVersion, pageVersions } = createInstallVersions({
    versions,
    links,
    signedManifest: deps.signedManifest,
  });

  return {
    async page(
      query: InstallPageQuery,
      context: {
        token?: string;
        ip: string;
        viewer: AuthUser | null;
        present: Links;
        secure: boolean;
        /** The page's device id (its cookie), put into the signed links for the install statistics. */
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
              { userId: context.viewer?.userId ?? null, device: context.device ?? null },
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
    async signedVersion(kind: SignedKind, query: SignedQuery): Promise<VersionRecord | null> {
      if (!(query.expires > clock.now())) return null;
      const version = await versions.findById(query.id);
      const app = version ? await apps.findById(version.app_id) : undefined;
      return version && app && links.verify(kind, query, passwordStamp(app)) ? version : null;
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
      return (index) => signedUrl('harmony-module', present, v.id, stamp, {}, `&module=${index}`);
    },
  };
}
export type InstallService = ReturnType<typeof createInstallService>;
