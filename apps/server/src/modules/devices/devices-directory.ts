import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createDevicesRepository } from './devices.repository.ts';

/** What device-enroll may read and add of devices: built by devices, so no other module holds its repository. */
export function createDevicesDirectory(db: Kysely<Database>) {
  const devices = createDevicesRepository(db);
  return { findByUdid: devices.findByUdid, insert: devices.insert };
}
export type DevicesDirectory = ReturnType<typeof createDevicesDirectory>;
