import type { NativePackageType } from '@release/contract';

export interface PackageVersion {
  platform: NativePackageType;
  appVersion: string;
  build: string | null;
}

/**
 * The platform, version and build of a package on disk, read by the server's own streaming
 * inspectors (so `--skip-existing` compares exactly what the server will record). The CLI runs from
 * a checkout of this repository; the inspectors are loaded only when this is asked for. Null when the
 * package has no version (web zips, html) or cannot be read: the server then has the last word.
 */
export async function readPackageVersion(filePath: string): Promise<PackageVersion | null> {
  const { inspectPackage } = await import('../../../apps/server/src/inspect/index.ts');
  let inspection: Awaited<ReturnType<typeof inspectPackage>>;
  try {
    inspection = await inspectPackage(filePath, { declaredName: filePath });
  } catch {
    return null;
  }
  switch (inspection.kind) {
    case 'ipa':
    case 'mac':
      return inspection.version ? { platform: inspection.kind === 'ipa' ? 'ios' : 'mac', appVersion: inspection.version, build: inspection.build } : null;
    case 'apk':
    case 'aab':
      return inspection.versionName
        ? { platform: 'android', appVersion: inspection.versionName, build: inspection.versionCode === null ? null : String(inspection.versionCode) }
        : null;
    case 'zip':
    case 'html':
      return null;
  }
}
