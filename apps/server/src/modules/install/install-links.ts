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
const signedPaths = {
  manifest: MANIFEST_PATH,
  'open-html': OPEN_HTML_PATH,
  'harmony-module': HARMONY_MODULE_PATH,
  'harmony-manifest': HARMONY_MANIFEST_PATH,
} as const;

export type SignedKind = keyof typeof signedPaths;

export function createSignedLinks({ signer, clock }: { signer: UrlSigner; clock: Clock }) {
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

  return { signedUrl };
}
export type SignedLinks = ReturnType<typeof createSignedLinks>;
