import { type NativePackageType, type ShortChanges, shortenChanges } from '@release/contract';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import type { VersionChangesService } from './version-changes.service.ts';

/** The install page's visitor: the signed-in user and the page's device id. */
interface Visitor {
  userId: number | null;
  device: string | null;
}

/**
 * What the install page says under the build it offers of a platform (issue 19): to a returning tester — the build of
 * that platform they last downloaded or installed is older — the changes since that build (自上次安装以来的变化);
 * otherwise the changes since the build before it (本版本更新).
 */
export function createInstallChanges(deps: {
  changes: Pick<VersionChangesService, 'between'>;
  versions: Pick<VersionsDirectory, 'findById'>;
  /** The build of a platform the visitor last took (install statistics), or null. */
  lastTaken: (appId: number, platform: NativePackageType, who: Visitor) => Promise<number | null>;
}) {
  // The install page let the visitor in already (password gate or a signed link): nothing more to check here.
  const admitted = async () => undefined;
  return async (version: VersionRecord, who: Visitor): Promise<ShortChanges | null> => {
    const taken = await deps.lastTaken(version.app_id, version.native_package_type, who);
    const base = taken && taken !== version.id ? await deps.versions.findById(taken) : undefined;
    if (base && base.app_id === version.app_id && base.index_no < version.index_no)
      return shortenChanges(await deps.changes.between(version.id, base.id, admitted), undefined, {
        sinceInstalled: true,
      });
    return shortenChanges(await deps.changes.between(version.id, undefined, admitted));
  };
}
