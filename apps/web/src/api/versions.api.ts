import {
  VERSION_REMOVAL_PREVIEW_PATH,
  VERSION_REMOVE_PATH,
  type AppVersionRow,
  type NativePackageType,
  type VersionRemovalPreview,
  type VersionRemovalResult,
} from '@release/contract';
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

/** GET /api/app_version/remove_preview: what removing a build deletes, keeps, and gives back (the confirm). */
export async function fetchRemovalPreview(
  query: { id: number; appId: number },
  signal?: AbortSignal,
): Promise<VersionRemovalPreview> {
  return (await api.get<VersionRemovalPreview>(VERSION_REMOVAL_PREVIEW_PATH, query, { signal, silent: true })).data;
}

/** POST /api/app_version/remove: removes a build and its re-signed copies; the files go in the background. */
export async function removeVersion(body: { id: number; appId: number }): Promise<VersionRemovalResult> {
  return (await api.post<VersionRemovalResult>(VERSION_REMOVE_PATH, body)).data;
}
