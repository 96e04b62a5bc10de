import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthService } from './auth.service.ts';
import { createPhoneCodeRepository } from './phone-code.repository.ts';
import { createPhoneCodeService } from './phone-code.service.ts';

/** Sign-in with a password or a phone code, sign-out, the signed-in user (sessions are in the core). */
export async function register(app: FastifyInstance, core: Core) {
  const { clock, config } = core;
  const auth = createAuthService({
    users: core.shared.users,
    sessions: core.shared.sessions,
    guard: core.shared.loginGuard,
    phoneCodes: createPhoneCodeService({ codes: createPhoneCodeRepository(core.db), sms: config.sms, clock }),
    settings: core.shared.settings,
    sms: config.sms,
    clock,
    larkAppId: config.lark?.appId ?? null,
    wecomEnabled: Boolean(config.wecom),
  });
  await app.register(authRoutes(auth));
}
