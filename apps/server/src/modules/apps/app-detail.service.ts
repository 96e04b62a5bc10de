import {
  ADMIN_ROLE_LEVEL,
  AppMessages,
  UNCATEGORISED_NAME,
  mainBundleId,
  randomAppPath,
  type AppDetail,
  type AppType,
  type SaveAppBody,
} from '@release/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { UsersDirectory } from '../users/users-directory.ts';
import type { AppMembersRepository } from './app-members.repository.ts';
import type { AppsPolicy } from './apps.policy.ts';
import type { AppsRepository } from './apps.repository.ts';
import { assertRobotUrl, type RobotHosts } from '../../integrations/robot-destination.ts';
import { storedMediaUrl, type MediaLinks } from '../../http/media-links.ts';
import { appColumns } from './app-columns.ts';

export interface AppDetailDeps {
  apps: AppsRepository;
  members: AppMembersRepository;
  users: UsersDirectory;
  policy: AppsPolicy;
  box: SecretBox;
  clock: Clock;
  /** Signs the icon link of the answer (media-links.ts). */
  mediaLinks: MediaLinks;
  /** Where the two group robot addresses may point (checked on save). */
  robotHosts?: RobotHosts;
}

/** Reads and saves one app's settings (SPEC §2 app settings modal, §3 App). */
export function createAppDetailService(deps: AppDetailDeps) {
  const { apps, members, users, policy, box, clock } = deps;

  /** SPEC §6: edit and view are exclusive, admins are never download-only users, unknown users are refused. */
  async function normaliseMembers(list: SaveAppBody['distributeUsers']) {
    const all = new Map((await users.listBrief()).map((u) => [u.userId, u]));
    const byUser = new Map<number, 'edit' | 'view'>();
    for (const { userId, permit } of list) {
      const user = all.get(userId);
      if (!user) throw AppError.badRequest(`用户不存在：${userId}`);
      if (permit === 'view' && user.roleLevel === ADMIN_ROLE_LEVEL)
        throw AppError.badRequest(AppMessages.adminAsViewer);
      // A later entry wins, so choosing a user for edit removes them from view and vice versa.
      byUser.set(userId, permit);
    }
    return [...byUser].map(([userId, permit]) => ({ userId, permit }));
  }

  return {
    async detail(viewer: AuthUser, appId: number, publicBaseUrl: string): Promise<AppDetail> {
      const access = await policy.assertCanView(viewer, appId);
      const app = await apps.findById(appId);
      if (!app) throw AppError.notFound(AppMessages.appNotFound);
      const [appUsers, flags, unread] = await Promise.all([
        members.listUsers(appId),
        members.flags(appId, viewer.userId),
        members.unreadCount(appId, viewer.userId),
      ]);
      const canSeeSecrets = access !== 'view';
      const bundleIds = appColumns.bundleIds.decode(app.bundle_ids);
      return {
        appId: app.id,
        appName: app.app_name,
        appType: app.app_type as AppType,
        appIcon: deps.mediaLinks.signed(app.app_icon),
        categoryId: app.category_id,
        categoryName: app.category_name ?? UNCATEGORISED_NAME,
        path: app.path,
        publicPath: app.public_path,
        description: app.description,
        bundleId: mainBundleId(bundleIds),
        bundleIds,
        supportUrl: app.support_url,
        devWeComUrl: canSeeSecrets ? app.dev_wecom_url : null,
        prodWeComUrl: canSeeSecrets ? app.prod_wecom_url : null,
        sourceCommitKey: app.source_commit_key,
        // Anyone who may install needs the install password.
        password: box.open(app.password),
        downloadUrl: `${publicBaseUrl}/package/${app.path}`,
        createTime: app.create_time,
        updateTime: app.update_time,
        collected: flags.collected,
        subscribed: flags.subscribed,
        unreadMessage: unread,
        users: appUsers.map((u) => ({ ...u, userId: Number(u.userId) })),
        distributeUsers: appUsers.map((u) => ({ userId: Number(u.userId), permit: u.permit })),
        permit: access,
      };
    },

    /** Creates (no appId) or updates an app; a taken path answers 409 下载链接重复，请重新设置. */
    async save(actor: AuthUser, body: SaveAppBody): Promise<{ appId: number }> {
      const now = clock.now();
      // Group robots may only be the configured Lark/WeCom hosts: the server must never be made to call elsewhere.
      if (deps.robotHosts) {
        assertRobotUrl(body.devWeComUrl, deps.robotHosts, '开发群机器人');
        assertRobotUrl(body.prodWeComUrl, deps.robotHosts, '正式群机器人');
      }
      if (await apps.isPathTaken(body.path, body.appId)) throw AppError.conflict(AppMessages.duplicatePath);
      const memberList = await normaliseMembers(body.distributeUsers);
      const fields = {
        app_name: body.appName,
        app_type: body.appType,
        // The form sends back the signed link it was shown: the record keeps /api/media/<key>.
        app_icon: storedMediaUrl(body.appIcon ?? null),
        category_id: body.categoryId ? body.categoryId : null,
        path: body.path,
        password: box.seal(body.password),
        description: body.description,
        // Left out (an older client), the ids stay as the uploads and the last save made them.
        ...(body.bundleIds ? { bundle_ids: appColumns.bundleIds.encode(body.bundleIds) } : {}),
        support_url: body.supportUrl ?? null,
        dev_wecom_url: body.devWeComUrl ?? null,
        prod_wecom_url: body.prodWeComUrl ?? null,
        ...(body.sourceCommitKey !== undefined ? { source_commit_key: body.sourceCommitKey || null } : {}),
        update_time: now,
      };
      if (body.appId === undefined) {
        let publicPath = body.publicPath ?? randomAppPath();
        while (publicPath === body.path || (await apps.isPathTaken(publicPath))) publicPath = randomAppPath();
        try {
          const appId = await apps.transaction(async (trx) => {
            const id = await apps.insert(trx, {
              ...fields,
              public_path: publicPath,
              create_by: actor.userId,
              create_time: now,
            });
            await members.replaceUsers(trx, id, memberList);
            return id;
          });
          return { appId };
        } catch (error) {
          // Two admins saving the same path at once: the unique index decides, the loser hears why.
          if (isUniqueViolation(error)) throw AppError.conflict(AppMessages.duplicatePath);
          throw error;
        }
      }
      const appId = body.appId;
      if (!(await apps.findById(appId))) throw AppError.notFound(AppMessages.appNotFound);
      try {
        await apps.transaction(async (trx) => {
          await apps.update(trx, appId, fields);
          await members.replaceUsers(trx, appId, memberList);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.conflict(AppMessages.duplicatePath);
        throw error;
      }
      return { appId };
    },
  };
}
export type AppDetailService = ReturnType<typeof createAppDetailService>;
