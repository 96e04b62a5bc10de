import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  AppleAccountMessages,
  normalizeUdid,
  type AppleProfileType,
  type AppleSyncResult,
  type CertificateProfile,
  type CertProfileType,
  type RegisterAppleDevicesResult,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { AscApiError, type AscResource } from '../../integrations/apple/asc-client.ts';
import { inspectMobileprovision } from '@release/inspect/mobileprovision.ts';
import type { CertificatesDirectory } from '../certificates/certificates-directory.ts';
import { appleMessage, assertConfirmed, callApple, isPerDeviceError } from './apple-errors.ts';
import type { AppleDeviceInput } from './apple-accounts.repository.ts';
import { clientFor, findAccount, type AppleAccountsDeps } from './apple-accounts.service.ts';

/** The attributes of Apple's resources that we read; a resource missing one is a MALFORMED_RESPONSE. */
const deviceAttributes = z.object({
  name: z.string(),
  udid: z.string(),
  platform: z.string(),
  deviceClass: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  status: z.string(),
  model: z.string().nullish(),
});
const certificateAttributes = z.object({
  name: z.string(),
  certificateType: z.string(),
  displayName: z.string().nullish(),
  serialNumber: z.string(),
  expirationDate: z.string(),
  certificateContent: z.string().nullish(),
});
const bundleIdAttributes = z.object({
  name: z.string(),
  identifier: z.string(),
  platform: z.string(),
  seedId: z.string().nullish(),
});
const profileAttributes = z.object({ name: z.string(), profileType: z.string(), profileContent: z.string() });

const IOS_CLASSES = ['IPHONE', 'IPAD', 'IPOD', 'APPLE_WATCH'];
const PROFILE_TYPE: Record<
  AppleProfileType,
  { apple: string; local: CertProfileType; certTypes: string[]; label: string; suffix: string }
> = {
  development: {
    apple: 'IOS_APP_DEVELOPMENT',
    local: 'development',
    certTypes: ['DEVELOPMENT', 'IOS_DEVELOPMENT'],
    label: '开发',
    suffix: 'Development',
  },
  'ad-hoc': {
    apple: 'IOS_APP_ADHOC',
    local: 'ad-hoc',
    certTypes: ['DISTRIBUTION', 'IOS_DISTRIBUTION'],
    label: '发布',
    suffix: 'AdHoc',
  },
};

const deviceRow = (d: AscResource<z.output<typeof deviceAttributes>>): AppleDeviceInput => ({
  apple_id: d.id,
  udid: d.attributes.udid,
  name: d.attributes.name,
  platform: d.attributes.platform,
  device_class: d.attributes.deviceClass,
  status: d.attributes.status,
  model: d.attributes.model ?? null,
});

/** Sync from Apple, device registration and profile regeneration for one account. */
export function createAppleProvisioningService(deps: AppleAccountsDeps & { certificates: CertificatesDirectory }) {
  const { accounts, clock, certificates } = deps;

  return {
    /**
     * Reads the account's devices, certificates and bundle ids from Apple and keeps a copy; devices Apple
     * has and the local list lacks are added to the local list (as registered at Apple).
     */
    async sync(id: number, userId: number): Promise<AppleSyncResult> {
      const account = await findAccount(deps, id);
      const client = clientFor(deps, account);
      const [devices, certs, bundleIds] = await callApple(() =>
        Promise.all([
          client.all('/v1/devices?limit=200', deviceAttributes),
          client.all('/v1/certificates?limit=200', certificateAttributes),
          client.all('/v1/bundleIds?limit=200', bundleIdAttributes),
        ]),
      );
      const locals = await accounts.localDevices();
      const known = new Set(locals.map((d) => d.udid.toLowerCase()));
      const now = clock.now();
      const fresh: Array<{ udid: string; device_name: string; platform: 'ios' | 'mac'; model: string | null }> = [];
      for (const d of devices) {
        const platform = d.attributes.platform === 'MAC_OS' ? 'mac' : 'ios';
        const udid = normalizeUdid(d.attributes.udid, platform);
        if (!udid || known.has(udid.toLowerCase())) continue;
        known.add(udid.toLowerCase());
        fresh.push({
          udid,
          device_name: d.attributes.name.slice(0, 64),
          platform,
          model: d.attributes.model?.slice(0, 64) ?? null,
        });
      }
      const result: AppleSyncResult = {
        devices: devices.length,
        certificates: certs.length,
        bundleIds: bundleIds.length,
        newLocalDevices: fresh.length,
      };
      const teamId = bundleIds.find((b) => b.attributes.seedId)?.attributes.seedId ?? account.team_id;
      await accounts.replaceSynced(
        account.id,
        {
          devices: devices.map(deviceRow),
          certificates: certs.map((c) => ({
            apple_id: c.id,
            name: c.attributes.name,
            certificate_type: c.attributes.certificateType,
            display_name: c.attributes.displayName ?? c.attributes.name,
            serial_number: c.attributes.serialNumber,
            expire_time: Date.parse(c.attributes.expirationDate) || 0,
            sha1: createHash('sha1')
              .update(Buffer.from(c.attributes.certificateContent ?? '', 'base64'))
              .digest('hex')
              .toUpperCase(),
          })),
          bundleIds: bundleIds.map((b) => ({
            apple_id: b.id,
            identifier: b.attributes.identifier,
            name: b.attributes.name,
            platform: b.attributes.platform,
            seed_id: b.attributes.seedId ?? null,
          })),
        },
        { last_sync: result, last_sync_time: now, team_id: teamId },
        async (trx) => {
          for (const d of fresh) {
            await trx
              .insertInto('devices')
              .values({
                ...d,
                remark: `Apple 账号 ${account.name} 同步`,
                create_by: userId,
                create_time: now,
                update_time: now,
              })
              .onConflict((oc) => oc.column('udid').doNothing())
              .execute();
          }
        },
      );
      return result;
    },

    /**
     * Registers local iOS devices at Apple (the given ones, or every one Apple lacks). A duplicate, a
     * refused UDID or the device limit fails that device only; a refused key or agreement fails the call.
     */
    async registerDevices(id: number, deviceIds?: number[]): Promise<RegisterAppleDevicesResult> {
      const account = await findAccount(deps, id);
      const locals = await accounts.localDevices();
      const atApple = new Set((await accounts.devicesOf([account.id])).map((d) => d.udid.toLowerCase()));
      // Only devices an admin confirmed go to Apple (an install page visitor's wait for 确认).
      let chosen = locals.filter(
        (d) => d.platform === 'ios' && d.review_status === 'confirmed' && !atApple.has(d.udid.toLowerCase()),
      );
      if (deviceIds) {
        const missing = deviceIds.find((wanted) => !locals.some((d) => d.id === wanted));
        if (missing !== undefined) throw AppError.badRequest(AppleAccountMessages.deviceNotFound(missing));
        chosen = locals.filter((d) => deviceIds.includes(d.id));
        for (const device of chosen) assertConfirmed(device);
      }
      if (chosen.length === 0) throw AppError.badRequest(AppleAccountMessages.nothingToRegister);
      const client = clientFor(deps, account);
      const result: RegisterAppleDevicesResult = { registered: [], failed: [] };
      for (const device of chosen) {
        try {
          const created = await client.single('POST', '/v1/devices', deviceAttributes, {
            data: {
              type: 'devices',
              attributes: {
                name: device.device_name,
                platform: device.platform === 'mac' ? 'MAC_OS' : 'IOS',
                udid: device.udid,
              },
            },
          });
          await accounts.addDevice(account.id, deviceRow(created));
          result.registered.push({ udid: device.udid, deviceName: device.device_name });
        } catch (error) {
          // One device's problem is reported with it; anything else (401, agreement, 429) stops the call.
          if (!isPerDeviceError(error)) await callApple(() => Promise.reject(error));
          result.failed.push({
            udid: device.udid,
            deviceName: device.device_name,
            msg: appleMessage(error as AscApiError, { udid: device.udid }),
          });
        }
      }
      return result;
    },

    /**
     * Makes the bundle id's ad-hoc or development profile anew with every enabled iOS device of the account
     * (Apple cannot edit one: the old one is deleted, then one is created with the same name), and stores it
     * on the matching uploaded certificate, replacing that certificate's profile of the same bundle id and type.
     */
    async regenerateProfile(input: {
      id: number;
      bundleId: string;
      profileType: AppleProfileType;
      certificateId?: number;
    }): Promise<{ certificateId: number; profile: CertificateProfile }> {
      const account = await findAccount(deps, input.id);
      const kind = PROFILE_TYPE[input.profileType];
      const appleCerts = await accounts.certificatesOf([account.id]);
      if (appleCerts.length === 0 && (await accounts.bundleIdsOf([account.id])).length === 0)
        throw AppError.badRequest(AppleAccountMessages.notSynced);
      const localCerts = await accounts.localCertificates();
      const pairs = appleCerts
        .filter((c) => kind.certTypes.includes(c.certificate_type))
        .flatMap((c) => localCerts.filter((l) => l.sha1 === c.sha1).map((l) => ({ apple: c, localId: Number(l.id) })));
      const pair =
        input.certificateId === undefined ? pairs.at(-1) : pairs.find((p) => p.localId === input.certificateId);
      if (!pair)
        throw AppError.badRequest(
          input.certificateId === undefined
            ? AppleAccountMessages.noCertificate(kind.label)
            : AppleAccountMessages.certificateNotInAccount,
        );

      const client = clientFor(deps, account);
      const created = await callApple(async () => {
        const candidates = await client.all(
          `/v1/bundleIds?limit=200&filter[identifier]=${encodeURIComponent(input.bundleId)}`,
          bundleIdAttributes,
        );
        // filter[identifier] matches substrings at Apple: pick the exact one.
        const bundle = candidates.find((b) => b.attributes.identifier === input.bundleId);
        if (!bundle) throw AppError.badRequest(AppleAccountMessages.bundleIdNotFound(input.bundleId));
        const devices = (
          await client.all('/v1/devices?limit=200&filter[status]=ENABLED&filter[platform]=IOS', deviceAttributes)
        ).filter((d) => IOS_CLASSES.includes(d.attributes.deviceClass));
        if (devices.length === 0) throw AppError.badRequest(AppleAccountMessages.noDevices);
        const existing = (await client.all(`/v1/bundleIds/${bundle.id}/profiles?limit=200`, profileAttributes)).filter(
          (p) => p.attributes.profileType === kind.apple,
        );
        const name = existing[0]?.attributes.name ?? `${input.bundleId} ${kind.suffix}`;
        for (const old of existing) await client.request('DELETE', `/v1/profiles/${old.id}`, z.unknown());
        const body = (profileName: string) => ({
          data: {
            type: 'profiles',
            attributes: { name: profileName, profileType: kind.apple },
            relationships: {
              bundleId: { data: { type: 'bundleIds', id: bundle.id } },
              certificates: { data: [{ type: 'certificates', id: pair.apple.apple_id }] },
              devices: { data: devices.map((d) => ({ type: 'devices', id: d.id })) },
            },
          },
        });
        try {
          return await client.single('POST', '/v1/profiles', profileAttributes, body(name));
        } catch (error) {
          // Right after a delete Apple may still hold the name: make it under a dated one instead.
          if (
            error instanceof AscApiError &&
            error.status === 409 &&
            /Multiple profiles found with the name/.test(error.detail)
          ) {
            return client.single(
              'POST',
              '/v1/profiles',
              profileAttributes,
              body(`${name} ${new Date(clock.now()).toISOString().slice(0, 16).replace('T', ' ')}`),
            );
          }
          throw error;
        }
      });

      const content = Buffer.from(created.attributes.profileContent, 'base64');
      let parsed;
      try {
        parsed = inspectMobileprovision(content);
      } catch {
        throw AppError.badRequest(AppleAccountMessages.profileUnreadable);
      }
      if (!parsed.uuid || !parsed.applicationIdentifier || !parsed.expiresAt)
        throw AppError.badRequest(AppleAccountMessages.profileUnreadable);
      const local = await certificates.findById(pair.localId);
      const listsCertificate = parsed.developerCertificates.some((c) => c.sha1 === local?.sha1);
      const appId = parsed.applicationIdentifier;
      const row = {
        uuid: parsed.uuid,
        name: parsed.name ?? created.attributes.name,
        profile_type: parsed.type,
        team_id: parsed.teamId,
        app_id: appId,
        bundle_id: appId.slice(appId.indexOf('.') + 1),
        devices: parsed.provisionedDevices,
        provisions_all_devices: parsed.provisionsAllDevices ? 1 : 0,
        lists_certificate: listsCertificate ? 1 : 0,
        expire_time: parsed.expiresAt.getTime(),
        content: content.toString('base64'),
      };
      const profileId = await certificates.replaceProfile(pair.localId, row);
      return {
        certificateId: pair.localId,
        profile: {
          id: profileId,
          name: row.name,
          uuid: row.uuid,
          type: parsed.type as CertProfileType,
          teamId: row.team_id,
          appId,
          bundleId: row.bundle_id,
          devices: parsed.provisionedDevices,
          provisionsAllDevices: parsed.provisionsAllDevices,
          expireTime: row.expire_time,
          listsCertificate,
        },
      };
    },
  };
}
export type AppleProvisioningService = ReturnType<typeof createAppleProvisioningService>;
