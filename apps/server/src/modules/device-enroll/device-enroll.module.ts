import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { createUrlSigner } from '../../storage/url-signer.ts';
import { createAppsRepository } from '../apps/apps.repository.ts';
import { createDevicesRepository } from '../devices/devices.repository.ts';
import { createDeviceEnrollRepository } from './device-enroll.repository.ts';
import { deviceEnrollRoutes } from './device-enroll.routes.ts';
import { createDeviceEnrollService } from './device-enroll.service.ts';
import type { ProfileSigner } from './mobileconfig.ts';

export interface DeviceEnrollModuleDeps {
  db: Kysely<Database>;
  clock: Clock;
  secret: string;
  publicUrl?: string;
  /** The install page's token check (modules/install). */
  isInstallTokenValid: (token: string | undefined, app: { id: number; password: string }) => boolean;
  /** MOBILECONFIG_SIGN_CERT/KEY, loaded; the profile is served unsigned without it. */
  profileSigner?: ProfileSigner | null;
}

/** Wires self-service device registration (Profile Service) and registers its routes. */
export async function registerDeviceEnroll(app: FastifyInstance, deps: DeviceEnrollModuleDeps) {
  const enroll = createDeviceEnrollService({
    enrollments: createDeviceEnrollRepository(deps.db),
    devices: createDevicesRepository(deps.db),
    apps: createAppsRepository(deps.db),
    isInstallTokenValid: deps.isInstallTokenValid,
    signer: createUrlSigner(deps.secret),
    clock: deps.clock,
    profileSigner: deps.profileSigner ?? null,
  });
  await app.register(deviceEnrollRoutes({ enroll, publicUrl: deps.publicUrl }));
  return enroll;
}
