import { AppleAccountMessages, type AddDeviceToBuildResult } from '@release/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { Links } from '../../http/links.ts';
import type { ZsignService } from '../zsign/zsign.service.ts';
import type { AppleAccountsRepository } from './apple-accounts.repository.ts';
import { assertConfirmed } from './apple-errors.ts';
import type { AppleProvisioningService } from './apple-provisioning.service.ts';

const DEVELOPMENT_TYPES = ['DEVELOPMENT', 'IOS_DEVELOPMENT'];

/**
 * "Add this tester's phone to the build": the app's Apple account registers the device (if Apple lacks it),
 * regenerates the build's profile onto the account's certificate, and the build is re-signed with it.
 */
export function createAppleBuildDeviceService(deps: {
  db: Kysely<Database>;
  accounts: AppleAccountsRepository;
  provisioning: AppleProvisioningService;
  zsign: ZsignService;
}) {
  const { db, accounts, provisioning, zsign } = deps;

  return {
    async addDeviceToBuild(
      actor: AuthUser,
      input: { appVersionId: number; deviceId: number },
      present: Links,
    ): Promise<AddDeviceToBuildResult> {
      const version = await db
        .selectFrom('app_versions')
        .select(['id', 'app_id', 'bundle_id'])
        .where('id', '=', input.appVersionId)
        .where('removed_time', 'is', null)
        .executeTakeFirst();
      if (!version) throw AppError.notFound(AppleAccountMessages.versionNotFound);
      if (!version.bundle_id) throw AppError.badRequest(AppleAccountMessages.versionWithoutBundleId);
      const binding = await db
        .selectFrom('apple_account_bindings')
        .select('account_id')
        .where('target_type', '=', 'app')
        .where('target_id', '=', Number(version.app_id))
        .executeTakeFirst();
      if (!binding) throw AppError.badRequest(AppleAccountMessages.appNotBound);
      const accountId = Number(binding.account_id);
      const device = (await accounts.localDevices()).find((d) => d.id === input.deviceId);
      if (!device) throw AppError.notFound(AppleAccountMessages.localDeviceNotFound);
      assertConfirmed(device);

      const atApple = (await accounts.devicesOf([accountId])).some(
        (d) => d.udid.toLowerCase() === device.udid.toLowerCase(),
      );
      if (!atApple) {
        const outcome = await provisioning.registerDevices(accountId, [device.id]);
        const failure = outcome.failed[0];
        // Already at Apple (registered elsewhere) is fine: the profile takes every enabled device.
        if (failure && failure.msg !== AppleAccountMessages.deviceDuplicate(device.udid))
          throw AppError.badRequest(failure.msg);
      }

      // The account's certificates that are uploaded here, those bound to the account first.
      const bound = new Set(
        ((await accounts.bindings([accountId])) ?? [])
          .filter((b) => b.target_type === 'certificate')
          .map((b) => Number(b.target_id)),
      );
      const locals = await accounts.localCertificates();
      const pairs = (await accounts.certificatesOf([accountId])).flatMap((c) =>
        locals.filter((l) => l.sha1 === c.sha1).map((l) => ({ localId: Number(l.id), type: c.certificate_type })),
      );
      const pair = pairs.find((p) => bound.has(p.localId)) ?? pairs.at(-1);
      if (!pair) throw AppError.badRequest(AppleAccountMessages.noCertificate(''));
      const regenerated = await provisioning.regenerateProfile({
        id: accountId,
        bundleId: version.bundle_id,
        profileType: DEVELOPMENT_TYPES.includes(pair.type) ? 'development' : 'ad-hoc',
        certificateId: pair.localId,
      });
      const job = await zsign.start(actor, { certId: regenerated.certificateId, appVersionId: version.id }, present);
      return { accountId, certificateId: regenerated.certificateId, profile: regenerated.profile, job };
    },
  };
}
export type AppleBuildDeviceService = ReturnType<typeof createAppleBuildDeviceService>;
