import type { InstallStats, VersionHolders } from '@release/contract';
import { api } from './client.ts';

/** GET /api/app_version/stats: an app's downloads and installs per build, and per day over the last 30 days. */
export async function fetchInstallStats(appId: number, signal?: AbortSignal): Promise<InstallStats> {
  return (await api.get<InstallStats>('/api/app_version/stats', { appId }, { signal, silent: true })).data;
}

/** GET /api/app_version/holders: who has a build (signed-in users with device and time), and its devices. */
export async function fetchVersionHolders(versionId: number, signal?: AbortSignal): Promise<VersionHolders> {
  return (await api.get<VersionHolders>('/api/app_version/holders', { versionId }, { signal, silent: true })).data;
}
