import { AppMessages, type AppCollectBody, type BindAppBody } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppMembersRepository } from './app-members.repository.ts';
import type { AppsPolicy } from './apps.policy.ts';
import type { AppsRepository } from './apps.repository.ts';
import type { UsersDirectory } from '../users/users-directory.ts';
import { Messages } from '@release/contract';

export function createAppMembersService(deps: {
  apps: AppsRepository;
  members: AppMembersRepository;
  users: UsersDirectory;
  policy: AppsPolicy;
  clock: Clock;
}) {
  const { apps, members, policy, clock } = deps;

  async function assertVisible(user: AuthUser, appIds: number[]) {
    for (const appId of appIds) await policy.assertCanView(user, appId);
  }

  return {
    /** Favourite or subscribe (SPEC §4); only to apps the user may see. Repeating it changes nothing. */
    async collect(user: AuthUser, body: AppCollectBody) {
      await assertVisible(user, body.appIds);
      await members.collect(body.appIds, user.userId, body.appCollectType, clock.now());
    },
    async cancelCollect(user: AuthUser, body: AppCollectBody) {
      await assertVisible(user, body.appIds);
      await members.uncollect(body.appIds, user.userId, body.appCollectType);
    },
    async appUsers(user: AuthUser, appId: number) {
      await policy.assertCanView(user, appId);
      return (await members.listUsers(appId)).map((u) => ({ ...u, userId: Number(u.userId) }));
    },
    async bindApp(body: BindAppBody) {
      if (!(await deps.users.findById(body.userId))) throw AppError.notFound(Messages.userNotFound);
      const known = await apps.existingIds(body.appIds);
      const missing = body.appIds.filter((id) => !known.includes(id));
      if (missing.length) throw AppError.notFound(`${AppMessages.appNotFound}：${missing.join(',')}`);
      await members.bindUser(body.userId, body.appIds, body.permit);
    },
    /** A user's apps and permits; admins may ask about anyone, others only about themselves. */
    async userApps(user: AuthUser, userId: number | undefined) {
      const target = userId ?? user.userId;
      if (target !== user.userId && !user.isAdmin) throw AppError.noPermission();
      return (await members.appsOfUser(target)).map((a) => ({ ...a, appId: Number(a.appId) }));
    },
  };
}
export type AppMembersService = ReturnType<typeof createAppMembersService>;
