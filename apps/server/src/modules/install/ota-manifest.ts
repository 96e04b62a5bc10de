import { build } from 'plist';

export interface OtaManifestInput {
  packageUrl: string;
  iconUrl: string | null;
  bundleId: string;
  version: string;
  title: string;
}

/** The iOS OTA manifest (packages.md §2.1): one software-package asset, icons when there is one. */
export function buildOtaManifest(input: OtaManifestInput): string {
  const assets: Array<Record<string, string | boolean>> = [{ kind: 'software-package', url: input.packageUrl }];
  if (input.iconUrl) {
    assets.push({ kind: 'display-image', 'needs-shine': false, url: input.iconUrl });
    assets.push({ kind: 'full-size-image', 'needs-shine': false, url: input.iconUrl });
  }
  return build({
    items: [
      {
        assets,
        metadata: {
          'bundle-identifier': input.bundleId,
          'bundle-version': input.version,
          kind: 'software',
          title: input.title,
        },
      },
    ],
  });
}

/** `itms-services://?action=download-manifest&url=<encoded https manifest URL>` (packages.md §2.2). */
export function itmsServicesLink(manifestUrl: string): string {
  return `itms-services://?action=download-manifest&url=${encodeURIComponent(manifestUrl)}`;
}
