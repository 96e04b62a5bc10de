import { type ShortChanges, shortenChanges } from '@release/contract';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { ChangesViewer, VersionChangesService } from './version-changes.service.ts';

/**
 * What the install page says under the build it offers of a platform (issue 19): to a returning tester — the build of
 * that platform they last downloaded or installed is older — the changes since that build (自上次安装以来的变化);
 * otherwise the changes since the build before it (本版本更新).
 */
export function createInstallChanges(deps: { changes: Pick<VersionChangesService, 'between' | 'lastInstallOf'> }) {
  // The install page let the visitor in already (password gate or a signed link): nothing more to check here.
  const admitted = async () => undefined;
  return async (version: VersionRecord, who: ChangesViewer): Promise<ShortChanges | null> => {
    const base = await deps.changes.lastInstallOf(version, who);
    if (base)
      return shortenChanges(await deps.changes.between(version.id, base.id, admitted), undefined, {
        sinceInstalled: true,
      });
    return shortenChanges(await deps.changes.between(version.id, undefined, admitted));
  };
}
