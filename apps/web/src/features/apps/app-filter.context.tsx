import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { ALL_APP_TYPES } from '@release/contract';
import type { AppListFilter } from '../../api/apps.api.ts';
import type { SortColumn, SortDirection } from './app-sort.options.ts';

interface AppFilterState {
  filter: AppListFilter;
  search: string;
  setAppType: (appType: AppListFilter['appType']) => void;
  setCategoryId: (categoryId: number) => void;
  setDeveloperId: (userId: number) => void;
  setViewCollect: (viewCollect: boolean) => void;
  setSort: (column: SortColumn, sort: SortDirection) => void;
  setSearch: (search: string) => void;
}

/** SPEC §3 App list filter defaults. */
export const defaultAppFilter: AppListFilter = {
  appType: ALL_APP_TYPES,
  categoryId: -1,
  userId: -1,
  viewCollect: false,
  orderByColumn: 'update_time',
  sort: 'DESC',
};

const AppFilterContext = createContext<AppFilterState | null>(null);

export function AppFilterProvider({ children }: { children: ReactNode }) {
  const [filter, setFilter] = useState<AppListFilter>(defaultAppFilter);
  const [search, setSearch] = useState('');
  const value = useMemo<AppFilterState>(
    () => ({
      filter,
      search,
      setAppType: (appType) => setFilter((f) => ({ ...f, appType })),
      // Category and developer filters exclude each other: choosing one resets the other to all.
      setCategoryId: (categoryId) => setFilter((f) => ({ ...f, categoryId, userId: -1 })),
      setDeveloperId: (userId) => setFilter((f) => ({ ...f, userId, categoryId: -1 })),
      setViewCollect: (viewCollect) => setFilter((f) => ({ ...f, viewCollect })),
      setSort: (orderByColumn, sort) => setFilter((f) => ({ ...f, orderByColumn, sort })),
      setSearch,
    }),
    [filter, search],
  );
  return <AppFilterContext.Provider value={value}>{children}</AppFilterContext.Provider>;
}

export function useAppFilter(): AppFilterState {
  const state = useContext(AppFilterContext);
  if (!state) throw new Error('useAppFilter needs <AppFilterProvider>');
  return state;
}
