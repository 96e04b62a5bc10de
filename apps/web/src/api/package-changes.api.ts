import {
  PACKAGE_CHANGES_PATH,
  PACKAGE_THRESHOLDS_PATH,
  type PackageChanges,
  type PackageThresholds,
} from '@release/contract';
import { api } from './client.ts';

/** Under `versions`: a refresh of the list refreshes these too. */
export const packageChangesKeys = {
  changes: (versionId: number) => ['versions', 'packageChanges', versionId] as const,
  thresholds: (appId: number) => ['versions', 'packageThresholds', appId] as const,
};

/** GET /api/version_package_changes: how the package changed since the previous build of its platform (issue 19). */
export async function fetchPackageChanges(versionId: number, signal?: AbortSignal): Promise<PackageChanges> {
  return (await api.get<PackageChanges>(PACKAGE_CHANGES_PATH, { versionId }, { signal })).data;
}

export async function fetchPackageThresholds(appId: number, signal?: AbortSignal): Promise<PackageThresholds> {
  return (await api.get<PackageThresholds>(PACKAGE_THRESHOLDS_PATH, { appId }, { signal })).data;
}

export async function savePackageThresholds(body: PackageThresholds & { appId: number }): Promise<PackageThresholds> {
  return (await api.post<PackageThresholds>(PACKAGE_THRESHOLDS_PATH, body)).data;
}
