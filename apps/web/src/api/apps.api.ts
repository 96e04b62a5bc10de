import {
  APP_LIST_PAGE,
  type AppCollectBody,
  type AppDetail,
  type AppListExtraInfo,
  type AppListItem,
  type AppListQuery,
  type SaveAppBody,
} from '@release/contract';
import { api } from './client.ts';

/** The filter fields of SPEC §3 that the server applies (the name search runs on the client). */
export type AppListFilter = Pick<AppListQuery, 'appType' | 'categoryId' | 'userId' | 'orderByColumn' | 'sort'> & {
  viewCollect: boolean;
};

export interface AppList {
  apps: AppListItem[];
  extraInfo: AppListExtraInfo;
}

const emptyExtraInfo: AppListExtraInfo = { total: 0, native: 0, unity: 0, appEditors: [] };

export async function fetchAppList(filter: AppListFilter, signal?: AbortSignal): Promise<AppList> {
  const response = await api.get<AppListItem[], { extraInfo?: AppListExtraInfo }>(
    '/api/apps',
    { ...filter, ...APP_LIST_PAGE },
    { signal },
  );
  return { apps: response.data, extraInfo: response.extraInfo ?? emptyExtraInfo };
}

export async function fetchAppDetail(appId: number, signal?: AbortSignal): Promise<AppDetail> {
  return (await api.get<AppDetail>('/api/app', { appId }, { signal })).data;
}

/**
 * POST /api/app: creates (no appId) or updates an app. Silent: the form shows the failure itself,
 * because a duplicate path is answered by regenerating it rather than by an error toast.
 */
export async function saveApp(body: SaveAppBody): Promise<{ appId: number }> {
  return (await api.post<{ appId: number }>('/api/app', body, { silent: true })).data;
}

/** Favourite or subscribe (SPEC §4): `on` picks app_collect, otherwise app_cancel_collect. */
export async function setAppCollect(
  appId: number,
  appCollectType: AppCollectBody['appCollectType'],
  on: boolean,
): Promise<void> {
  const body: AppCollectBody = { appIds: [appId], appCollectType };
  await api.post<unknown>(on ? '/api/app_collect' : '/api/app_cancel_collect', body);
}

/** POST /api/upload with type=app; answers the stored file's url (icons, snapshots). */
export async function uploadAppFile(file: File): Promise<string> {
  // `type` goes before `file`: the server reads the fields that precede the file part.
  return (await api.upload<{ url: string }>('/api/upload', { type: 'app', file })).data.url;
}
