import { DOWNLOAD_LINK_TTL_SEC, type Links } from '../../http/links.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UrlSigner } from '../../storage/url-signer.ts';

/* The install page's signed links (iOS manifest, html page, HarmonyOS modules and manifest): their paths and signing. */

export const MANIFEST_PATH = '/api/app_version/manifest.plist';
/** 打开 for an html package: the page itself, shown sandboxed (install.routes.ts). */
export const OPEN_HTML_PATH = '/api/app_version/open';
/** A HarmonyOS build's module (`&module=<index>`), and its enterprise install manifest. */
export const HARMONY_MODULE_PATH = '/api/app_version/harmony_module';
export const HARMONY_MANIFEST_PATH = '/api/app_version/harmony_manifest.json5';
/** A build's package from the install page: counted (install statistics), then redirected to the stored file. */
export const DOWNLOAD_PATH = '/api/app_version/download';
const signedPaths = {
  download: DOWNLOAD_PATH,
  manifest: MANIFEST_PATH,
  'open-html': OPEN_HTML_PATH,
  'harmony-module': HARMONY_MODULE_PATH,
  'harmony-manifest': HARMONY_MANIFEST_PATH,
} as const;

export type SignedKind = keyof typeof signedPaths;
/**
 * Who a signed link was handed to, for the install statistics: the signed-in user (`u=`, signed, so a count is only
 * ever attributed to whom the page was shown) and the page's device id (`d=`, unsigned: it only names a counter).
 */
export interface LinkHolder {
  userId?: number | null;
  device?: string | null;
}
/** A signed link's query as the routes read it. */
export interface SignedQuery {
  id: number;
  expires: number;
  sig: string;
  u?: number;
}

export function createSignedLinks({ signer, clock }: { signer: UrlSigner; clock: Clock }) {
  /** A manifest, open or module link of one version, signed for the app's current install password. */
  function signedUrl(
    kind: SignedKind,
    present: Links,
    versionId: number,
    stamp: string,
    holder: LinkHolder = {},
    extra = '',
  ): string {
    const expires = clock.now() + DOWNLOAD_LINK_TTL_SEC * 1000;
    const user = holder.userId ?? 0;
    const sig = signer.sign([kind, versionId, expires, stamp, user]);
    const counted = `${user ? `&u=${user}` : ''}${holder.device ? `&d=${holder.device}` : ''}`;
    return present.apiUrl(`${signedPaths[kind]}?id=${versionId}&expires=${expires}&sig=${sig}${counted}${extra}`);
  }

  /** Whether a signed link's query is unexpired and signed for this kind, build, password stamp and user. */
  function verify(kind: SignedKind, query: SignedQuery, stamp: string): boolean {
    return (
      query.expires > clock.now() && signer.verify([kind, query.id, query.expires, stamp, query.u ?? 0], query.sig)
    );
  }

  return { signedUrl, verify };
}
export type SignedLinks = ReturnType<typeof createSignedLinks>;
