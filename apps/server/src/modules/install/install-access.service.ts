import {
  AppMessages,
  randomInstallPassword,
  type InstallAccess,
  type UpdateInstallAccessBody,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AppsLookup } from '../apps/apps-directory.ts';
import type { InstallAccessRepository } from './install-access.repository.ts';

/**
 * The app page's 安装密码 and 免密链接 for editors and admins: read the password, draw a new one (every remembered pass
 * and handed-out install link ends with it, see install.service passwordStamp), turn /package/<publicPath> on or off.
 */
export function createInstallAccessService(deps: {
  apps: AppsLookup;
  access: InstallAccessRepository;
  policy: AppsPolicy;
  box: SecretBox;
  random?: () => number;
}) {
  const { apps, access, policy, box } = deps;

  async function read(appId: number, base: string): Promise<InstallAccess> {
    const app = await apps.findById(appId);
    if (!app) throw AppError.notFound(AppMessages.appNotFound);
    return {
      appId: app.id,
      password: box.open(app.password),
      downloadUrl: `${base}/package/${app.path}`,
      publicUrl: `${base}/package/${app.public_path}`,
      publicInstall: app.public_install === 1,
    };
  }

  /** A new valid password, never the current one (that would end nothing). */
  function freshPassword(current: string): string {
    for (;;) {
      const candidate = randomInstallPassword(deps.random);
      if (candidate !== current) return candidate;
    }
  }

  return {
    async get(user: AuthUser, appId: number, base: string): Promise<InstallAccess> {
      await policy.assertCanEdit(user, appId);
      return read(appId, base);
    },

    async update(user: AuthUser, body: UpdateInstallAccessBody, base: string): Promise<InstallAccess> {
      await policy.assertCanEdit(user, body.appId);
      const app = await apps.findById(body.appId);
      if (!app) throw AppError.notFound(AppMessages.appNotFound);
      await access.update(body.appId, {
        ...(body.regeneratePassword ? { password: box.seal(freshPassword(box.open(app.password))) } : {}),
        ...(body.publicInstall === undefined ? {} : { public_install: body.publicInstall ? 1 : 0 }),
      });
      return read(body.appId, base);
    },
  };
}
export type InstallAccessService = ReturnType<typeof createInstallAccessService>;
