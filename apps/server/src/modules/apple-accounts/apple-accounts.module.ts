import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createAppleAccountsRepository } from './apple-accounts.repository.ts';
import { appleAccountsRoutes } from './apple-accounts.routes.ts';
import { createAppleAccountsService } from './apple-accounts.service.ts';
import { createAppleBuildDeviceService } from './apple-build-device.service.ts';
import { createAppleProvisioningService } from './apple-provisioning.service.ts';

/** Apple accounts (App Store Connect API keys): provisioning, and re-signing for a build device. */
export async function register(app: FastifyInstance, core: Core) {
  const base = {
    accounts: createAppleAccountsRepository(core.db),
    box: core.box,
    clock: core.clock,
    baseUrl: core.config.appleApiBaseUrl,
  };
  const accounts = createAppleAccountsService(base);
  const provisioning = createAppleProvisioningService({ ...base, certificates: core.shared.certificateRecords });
  const buildDevice = createAppleBuildDeviceService({
    db: core.db,
    accounts: base.accounts,
    provisioning,
    zsign: core.shared.zsign,
  });
  await app.register(appleAccountsRoutes({ accounts, provisioning, buildDevice, ...core.links }));
}
