import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isAdminLevel, UNCATEGORISED_ID, UNCATEGORISED_NAME, type AppDetail } from '@release/contract';
import { fetchCategories } from '../../../api/categories.api.ts';
import { queryKeys } from '../../../api/query-keys.ts';
import { fetchUserBriefs } from '../../../api/users.api.ts';

export interface Option {
  value: number;
  label: string;
}

interface PickUser {
  userId: number;
  username: string;
  isAdmin: boolean;
}

/**
 * Choices of the app form. Admins (who can edit) load every category and user; a read-only viewer
 * only needs the app's own category and users to show their names.
 */
export function useAppFormOptions(open: boolean, canEdit: boolean, app: AppDetail | null) {
  const categories = useQuery({
    queryKey: queryKeys.categories,
    queryFn: ({ signal }) => fetchCategories(signal),
    enabled: open && canEdit,
  });
  const users = useQuery({
    queryKey: queryKeys.userBriefs,
    queryFn: ({ signal }) => fetchUserBriefs(signal),
    enabled: open && canEdit,
  });

  const categoryOptions = useMemo<Option[]>(() => {
    const options = (categories.data ?? []).map((c) => ({ value: c.id, label: c.categoryName }));
    if (app?.categoryId != null && !options.some((o) => o.value === app.categoryId)) {
      options.push({ value: app.categoryId, label: app.categoryName });
    }
    if (!options.some((o) => o.value === UNCATEGORISED_ID))
      options.unshift({ value: UNCATEGORISED_ID, label: UNCATEGORISED_NAME });
    return options;
  }, [categories.data, app]);

  const pickUsers = useMemo<PickUser[]>(() => {
    const byId = new Map<number, PickUser>();
    for (const user of users.data ?? [])
      byId.set(user.userId, { userId: user.userId, username: user.username, isAdmin: isAdminLevel(user.roleLevel) });
    for (const user of app?.users ?? []) {
      if (!byId.has(user.userId))
        byId.set(user.userId, { userId: user.userId, username: user.username, isAdmin: false });
    }
    return [...byId.values()];
  }, [users.data, app]);

  return { categoryOptions, pickUsers, isLoading: categories.isLoading || users.isLoading };
}

/**
 * SPEC §6 pick lists: a user chosen on one side is not offered on the other, and admins are never
 * offered as view (download) users.
 */
export function permitOptions(
  pickUsers: PickUser[],
  editUserIds: number[],
  viewUserIds: number[],
): { edit: Option[]; view: Option[] } {
  const toOption = (user: PickUser): Option => ({ value: user.userId, label: user.username });
  return {
    edit: pickUsers.filter((user) => !viewUserIds.includes(user.userId)).map(toOption),
    view: pickUsers.filter((user) => !user.isAdmin && !editUserIds.includes(user.userId)).map(toOption),
  };
}
