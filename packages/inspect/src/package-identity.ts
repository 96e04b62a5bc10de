import { packageKindRow, type NativePackageType } from '@release/contract/package-kinds';
import type { PackageInspection } from './types.ts';

/** What names a build, whatever its kind: the fields each inspector reads under its own names. */
export interface PackageIdentity {
  platform: NativePackageType;
  version: string | null;
  build: string | null;
  /** The app's display name (an html page's title). */
  name: string | null;
  /** Bundle id, Android package name or HarmonyOS bundle name. */
  bundleId: string | null;
  /** When the build stops installing: its profile's end (iOS, mac, HarmonyOS); null when nothing dates it. */
  expiresAt: Date | null;
}

/** The earlier of two ends, either of which may be unknown. */
function earliest(a: Date | null | undefined, b: Date | null | undefined): Date | null {
  if (!a || !b) return a ?? b ?? null;
  return a.getTime() <= b.getTime() ? a : b;
}

/** One reading of an inspection for the server's version row, the bundle id rule and the CLI's --skip-existing. */
export function packageIdentity(inspection: PackageInspection): PackageIdentity {
  const platform = packageKindRow(inspection.kind).platform;
  switch (inspection.kind) {
    case 'ipa':
    case 'mac':
      return {
        platform,
        version: inspection.version,
        build: inspection.build,
        name: inspection.displayName,
        bundleId: inspection.bundleId,
        expiresAt: inspection.provisioningProfile?.expiresAt ?? null,
      };
    case 'apk':
    case 'aab':
      return {
        platform,
        version: inspection.versionName,
        build: inspection.versionCode === null ? null : String(inspection.versionCode),
        name: inspection.label,
        bundleId: inspection.packageName,
        expiresAt: null,
      };
    case 'hap':
    case 'hsp':
    case 'app':
      return {
        platform,
        version: inspection.versionName,
        build: inspection.versionCode === null ? null : String(inspection.versionCode),
        name: inspection.label,
        bundleId: inspection.bundleName,
        // A HarmonyOS build stops installing when its profile or its signing certificate ends, whichever comes first.
        expiresAt: earliest(inspection.profile?.validTo, inspection.signature?.certificate?.validTo),
      };
    case 'zip':
      return { platform, version: null, build: null, name: null, bundleId: null, expiresAt: null };
    case 'html':
      return { platform, version: null, build: null, name: inspection.title, bundleId: null, expiresAt: null };
  }
}
