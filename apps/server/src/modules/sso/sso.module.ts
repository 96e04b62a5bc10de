import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createWecomClient } from '../../integrations/wecom/wecom-client.ts';
import { createIdentitiesRepository } from './identities.repository.ts';
import { createSignInStatesRepository } from './sign-in-states.repository.ts';
import { createSignInStates } from './sign-in-states.ts';
import { createSsoAccounts } from './sso-accounts.ts';
import { ssoRoutes } from './sso.routes.ts';
import { createSsoService } from './sso.service.ts';

/** Sign-in with Lark or WeCom; housekeeping drops expired sign-in states. */
export async function register(app: FastifyInstance, core: Core) {
  const { clock, shared } = core;
  const identities = createIdentitiesRepository(core.db);
  const sso = createSsoService({
    states: createSignInStates(createSignInStatesRepository(core.db), clock),
    accounts: createSsoAccounts({ identities, users: shared.users, roles: shared.roles, clock }),
    identities,
    users: shared.users,
    sessions: core.shared.sessions,
    lark: core.lark,
    wecom: core.config.wecom ? createWecomClient(core.config.wecom, clock) : null,
    clock,
  });
  core.housekeeping.add(() => sso.purgeExpired());
  await app.register(ssoRoutes({ sso, publicUrl: core.config.publicUrl }));
}
