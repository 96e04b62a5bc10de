import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createDevicesRepository } from './devices.repository.ts';
import { devicesRoutes } from './devices.routes.ts';
import { createDevicesService } from './devices.service.ts';

/** Registered test devices (UDIDs). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(
    devicesRoutes(createDevicesService({ devices: createDevicesRepository(core.db), clock: core.clock })),
  );
}
