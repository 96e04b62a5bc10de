import { packageKindRow, type NativePackageType } from '@release/contract/package-kinds';
import type { PackageInspection } from './types.ts';

/** What names a build, whatever its kind: the fields each inspector reads under its own names. */
export interface PackageIdentity {
  platform: NativePackageType;
  version: string | null;
  build: string | null;
  /** The app's display name (an html page's title). */
  name: string | null;
  /** Bundle id or Android package name. */
  bundleId: string | null;
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
      };
    case 'apk':
    case 'aab':
      return {
        platform,
        version: inspection.versionName,
        build: inspection.versionCode === null ? null : String(inspection.versionCode),
        name: inspection.label,
        bundleId: inspection.packageName,
      };
    case 'zip':
      return { platform, version: null, build: null, name: null, bundleId: null };
    case 'html':
      return { platform, version: null, build: null, name: inspection.title, bundleId: null };
  }
}
