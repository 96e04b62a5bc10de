import { APP_LIST_PAGE, type AppListExtraInfo, type AppListItem, type AppListQuery } from '@release/contract';
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
