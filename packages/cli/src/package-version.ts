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
  const { inspectPackage, packageIdentity } = await import('@release/inspect');
  try {
    const { platform, version, build } = packageIdentity(await inspectPackage(filePath, { declaredName: filePath }));
    return version ? { platform, appVersion: version, build } : null;
  } catch {
    return null;
  }
}
