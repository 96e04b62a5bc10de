import type { AppVersionRow, NativePackageType } from '@release/contract';
import { api } from './client.ts';

export interface VersionListParams {
  appId: number;
  pageNo: number;
  pageSize: number;
  nativePackageType?: NativePackageType;
}

export interface VersionPage {
  rows: AppVersionRow[];
  total: number;
}

/** GET /api/app_versions: one page of an app's package versions, newest first. */
export async function fetchAppVersions(params: VersionListParams, signal?: AbortSignal): Promise<VersionPage> {
  const response = await api.get<AppVersionRow[], { total?: number }>('/api/app_versions', { ...params }, { signal });
  return { rows: response.data, total: response.total ?? response.data.length };
}

/** POST /api/app_version: edits a package's note. */
export async function editVersionNote(body: { id: number; appId: number; description: string }): Promise<void> {
  await api.post<unknown>('/api/app_version', body);
}
