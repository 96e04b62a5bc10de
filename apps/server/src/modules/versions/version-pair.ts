import { AppError } from '../../http/app-error.ts';
import type { VersionRecord } from './versions.repository.ts';
import type { VersionsDirectory } from './versions-directory.ts';

const VERSION_NOT_FOUND = '版本不存在';

/**
 * The two builds a comparison reads: `versionId`, and `baseVersionId` of the same app or by default the previous build
 * of its platform (null for the first). The caller's access to the app is checked before the base is read; a missing
 * build, or a base of another app, is 404.
 */
export async function comparedPair(
  versions: Pick<VersionsDirectory, 'findById' | 'previousOf'>,
  versionId: number,
  baseVersionId: number | undefined,
  authorize: (appId: number) => Promise<unknown>,
): Promise<{ version: VersionRecord; base: VersionRecord | null }> {
  const version = await versions.findById(versionId);
  if (!version) throw AppError.notFound(VERSION_NOT_FOUND);
  await authorize(version.app_id);
  const base =
    baseVersionId === undefined ? await versions.previousOf(version) : await versions.findById(baseVersionId);
  if (baseVersionId !== undefined && (!base || base.app_id !== version.app_id))
    throw AppError.notFound(VERSION_NOT_FOUND);
  return { version, base: base ?? null };
}
