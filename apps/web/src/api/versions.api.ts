import {
  RETENTION_PATH,
  RETENTION_PREVIEW_PATH,
  VERSION_REMOVAL_PREVIEW_PATH,
  VERSION_PIN_PATH,
  VERSION_REMOVE_PATH,
  type AppRetention,
  type AppVersionRow,
  type RetentionPreview,
  type RetentionRule,
  type NativePackageType,
  type VersionRemovalPreview,
  type VersionChanges,
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

/** GET /api/app_retention: the app's retention rule (or the default it follows). */
export async function fetchRetention(appId: number, signal?: AbortSignal): Promise<AppRetention> {
  return (await api.get<AppRetention>(RETENTION_PATH, { appId }, { signal })).data;
}

/** GET /api/app_retention/preview: the builds a rule would remove now, and the space freed (nothing is removed). */
export async function fetchRetentionPreview(
  query: { appId: number; keepLast: number; keepDays: number; quotaMb: number },
  signal?: AbortSignal,
): Promise<RetentionPreview> {
  return (await api.get<RetentionPreview>(RETENTION_PREVIEW_PATH, query, { signal })).data;
}

/** POST /api/app_retention: saves the app's rule. */
export async function saveRetention(body: RetentionRule & { appId: number }): Promise<AppRetention> {
  return (await api.post<AppRetention>(RETENTION_PATH, body)).data;
}

/** POST /api/app_version/pin: sets or clears a build's 保留 mark (retention never removes a marked build). */
export async function pinVersion(body: { id: number; appId: number; pinned: boolean }): Promise<void> {
  await api.post<unknown>(VERSION_PIN_PATH, body);
}

/** GET /api/version_changes: what changed since the previous build of the platform, or since the caller's last install. */
export async function fetchVersionChanges(
  versionId: number,
  base: 'previous' | 'last_install',
  signal?: AbortSignal,
): Promise<VersionChanges> {
  return (await api.get<VersionChanges>('/api/version_changes', { versionId, base }, { signal })).data;
}
