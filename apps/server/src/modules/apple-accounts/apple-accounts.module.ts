import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { createCertificatesRepository } from '../certificates/certificates.repository.ts';
import { createAppleAccountsRepository } from './apple-accounts.repository.ts';
import { appleAccountsRoutes } from './apple-accounts.routes.ts';
import { createAppleAccountsService } from './apple-accounts.service.ts';
import { createAppleProvisioningService } from './apple-provisioning.service.ts';
import { createAppleBuildDeviceService } from './apple-build-device.service.ts';
import type { ZsignService } from '../zsign/zsign.service.ts';
import type { LinkDeps } from '../../http/links.ts';

/** Wires Apple accounts (App Store Connect API keys) and registers their routes. */
export async function registerAppleAccounts(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; box: SecretBox; clock: Clock; baseUrl: string; zsign: ZsignService } & LinkDeps,
) {
  const base = {
    accounts: createAppleAccountsRepository(deps.db),
    box: deps.box,
    clock: deps.clock,
    baseUrl: deps.baseUrl,
  };
  const accounts = createAppleAccountsService(base);
  const provisioning = createAppleProvisioningService({ ...base, certificates: createCertificatesRepository(deps.db) });
  const buildDevice = createAppleBuildDeviceService({
    db: deps.db,
    accounts: base.accounts,
    provisioning,
    zsign: deps.zsign,
  });
  await app.register(
    appleAccountsRoutes({
      accounts,
      provisioning,
      buildDevice,
      blobs: deps.blobs,
      publicUrl: deps.publicUrl,
      downloadBaseUrl: deps.downloadBaseUrl,
      mediaLinks: deps.mediaLinks,
    }),
  );
  return { accounts, provisioning };
}
