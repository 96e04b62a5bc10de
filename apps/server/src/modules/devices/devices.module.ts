import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { devicesRoutes } from './devices.routes.ts';
import { createDevicesService } from './devices.service.ts';

/** Registered test devices (UDIDs). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(devicesRoutes(createDevicesService({ devices: core.repos.devices, clock: core.clock })));
}
