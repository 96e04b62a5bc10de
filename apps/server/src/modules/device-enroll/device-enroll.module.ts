import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createUrlSigner } from '../../storage/url-signer.ts';
import { createDeviceEnrollRepository } from './device-enroll.repository.ts';
import { deviceEnrollRoutes } from './device-enroll.routes.ts';
import { createDeviceEnrollService } from './device-enroll.service.ts';

/** Self-service device registration (Profile Service), opened from an app's install page. */
export async function register(app: FastifyInstance, core: Core) {
  const enroll = createDeviceEnrollService({
    enrollments: createDeviceEnrollRepository(core.db),
    devices: core.shared.devices,
    apps: core.shared.apps,
    isInstallTokenValid: core.shared.install.isPageTokenValid,
    signer: createUrlSigner(core.config.secret),
    clock: core.clock,
    profileSigner: core.config.mobileconfigSigner,
  });
  await app.register(deviceEnrollRoutes({ enroll, publicUrl: core.config.publicUrl }));
}
