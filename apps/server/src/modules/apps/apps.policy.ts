import { AppError } from '../../http/app-error.ts';
import type { AuthUser } from '../auth/session.service.ts';
import { AppMessages } from '@release/contract';
import type { AppMembersRepository } from './app-members.repository.ts';

export type AppAccess = 'admin' | 'edit' | 'view';

/**
 * SPEC §6 per-app permits: admins may do everything, edit users upload and see the download page,
 * view users only download. Anyone else is told the app does not exist for them.
 */
export function createAppsPolicy(members: AppMembersRepository) {
  async function accessOf(user: AuthUser, appId: number): Promise<AppAccess | null> {
    if (user.isAdmin) return 'admin';
    return members.permitOf(appId, user.userId);
  }
  return {
    accessOf,
    async assertCanView(user: AuthUser, appId: number): Promise<AppAccess> {
      const access = await accessOf(user, appId);
      if (!access) throw AppError.notFound(AppMessages.appNotFound);
      return access;
    },
    async assertCanEdit(user: AuthUser, appId: number): Promise<AppAccess> {
      const access = await accessOf(user, appId);
      if (!access) throw AppError.notFound(AppMessages.appNotFound);
      if (access === 'view') throw AppError.noPermission();
      return access;
    },
  };
}
export type AppsPolicy = ReturnType<typeof createAppsPolicy>;
