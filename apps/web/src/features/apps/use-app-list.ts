import { useEffect, useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AppListItem } from '@release/contract';
import { fetchAppList, type AppListFilter } from '../../api/apps.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useIsAdmin } from '../../app/session.store.ts';
import { defaultAppFilter, useAppFilter } from './app-filter.context.tsx';
import { setCurrentAppId, useCurrentAppId } from './current-app.store.ts';

/** Case-insensitive name search, on the client (SPEC §2 sider). */
export function filterAppsByName(apps: AppListItem[], search: string): AppListItem[] {
  const needle = search.trim().toLowerCase();
  return needle ? apps.filter((app) => app.appName.toLowerCase().includes(needle)) : apps;
}

/** GET /api/apps with the sider's filter; category, developer and favourites apply to admins only. */
export function useAppList() {
  const { filter, search } = useAppFilter();
  const isAdmin = useIsAdmin();
  const effective: AppListFilter = isAdmin ? filter : { ...filter, categoryId: -1, userId: -1, viewCollect: false };
  const query = useQuery({
    queryKey: queryKeys.appList(effective),
    queryFn: ({ signal }) => fetchAppList(effective, signal),
    placeholderData: keepPreviousData,
  });
  const apps = useMemo(() => query.data?.apps ?? [], [query.data]);
  const visibleApps = useMemo(() => filterAppsByName(apps, search), [apps, search]);
  const isLoaded = query.isSuccess && !query.isPlaceholderData;
  return { ...query, apps, visibleApps, isLoaded, extraInfo: query.data?.extraInfo };
}

/** The current app; SPEC §4: it moves to the first app when absent from the fetched list. */
export function useCurrentApp(apps: AppListItem[], isLoaded: boolean): AppListItem | null {
  const currentId = useCurrentAppId();
  const current = apps.find((app) => app.appId === currentId) ?? null;
  useEffect(() => {
    const first = apps[0];
    if (!isLoaded || current || !first) return;
    setCurrentAppId(first.appId);
  }, [apps, current, isLoaded]);
  return current ?? apps[0] ?? null;
}

/**
 * The app behind /home/app/:path. The sider's list may be filtered, so a path missing there is
 * looked up in the unfiltered list before the page says it does not exist.
 */
export function useAppByPath(path: string) {
  const list = useAppList();
  const listed = list.apps.find((app) => app.path === path) ?? null;
  const all = useQuery({
    queryKey: queryKeys.appList(defaultAppFilter),
    queryFn: ({ signal }) => fetchAppList(defaultAppFilter, signal),
    enabled: list.isLoaded && listed === null,
  });
  const app = listed ?? all.data?.apps.find((candidate) => candidate.path === path) ?? null;
  const isResolving = app === null && (list.isPending || list.isFetching || all.isFetching);
  return { app, isResolving, hasNoApps: all.data?.apps.length === 0 };
}
