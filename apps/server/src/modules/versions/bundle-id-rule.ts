import type { AppBundleIds, BundleIdPlatform } from '@release/contract';
import { packageIdentity, type PackageInspection } from '@release/inspect';

/** The platform and id a package must match the app on; null for packages without one (web zip, html). */
export function bundleIdOf(inspection: PackageInspection): { platform: BundleIdPlatform; bundleId: string } | null {
  const { platform, bundleId } = packageIdentity(inspection);
  return platform !== 'web' && bundleId ? { platform, bundleId } : null;
}

export type BundleIdDecision =
  | { kind: 'accept' }
  /** The platform's first build: its id becomes the app's. */
  | { kind: 'claim'; next: AppBundleIds }
  | { kind: 'mismatch'; allowed: string[] };

/**
 * Whether a package with `target` may become a version of an app holding `stored`: the first build of a platform
 * sets the id, later ones must carry one of the listed ids, unless the uploader confirmed another (`allowOther`),
 * which publishes it without changing the app's ids.
 */
export function decideBundleId(
  stored: AppBundleIds,
  target: { platform: BundleIdPlatform; bundleId: string },
  allowOther: boolean,
): BundleIdDecision {
  const allowed = stored[target.platform];
  if (allowed.length === 0) return { kind: 'claim', next: { ...stored, [target.platform]: [target.bundleId] } };
  if (allowed.includes(target.bundleId) || allowOther) return { kind: 'accept' };
  return { kind: 'mismatch', allowed };
}
