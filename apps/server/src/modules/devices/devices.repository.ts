import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, DevicesTable } from '../../db/schema.ts';
import type { DevicePlatform, DeviceReviewStatus } from '@release/contract';

export interface DeviceFilter {
  keyword?: string;
  platform?: DevicePlatform;
  reviewStatus?: DeviceReviewStatus;
}

export function createDevicesRepository(db: Kysely<Database>) {
  const filtered = (filter: DeviceFilter) => {
    let query = db.selectFrom('devices as d');
    if (filter.platform) query = query.where('d.platform', '=', filter.platform);
    if (filter.reviewStatus) query = query.where('d.review_status', '=', filter.reviewStatus);
    if (filter.keyword) {
      const like = `%${filter.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb(sql<string>`lower(d.udid)`, 'like', sql<string>`${like} escape '\\'`),
          eb(sql<string>`lower(d.device_name)`, 'like', sql<string>`${like} escape '\\'`),
          eb(sql<string>`lower(coalesce(d.model, ''))`, 'like', sql<string>`${like} escape '\\'`),
        ]),
      );
    }
    return query;
  };

  return {
    /** Newest first, by page; with the name of whoever added each device. */
    async list(filter: DeviceFilter, offset: number, limit: number) {
      const [rows, count] = await Promise.all([
        filtered(filter)
          .leftJoin('users as u', 'u.id', 'd.create_by')
          .selectAll('d')
          .select('u.username as createBy')
          .orderBy('d.create_time', 'desc')
          .orderBy('d.id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        filtered(filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ]);
      return { rows, total: Number(count?.n ?? 0) };
    },
    /** Every confirmed device, oldest first (export order). */
    async allConfirmed() {
      return db
        .selectFrom('devices')
        .select(['udid', 'device_name', 'platform'])
        .where('review_status', '=', 'confirmed')
        .orderBy('create_time', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },
    /** The synced Apple accounts and which of these UDIDs each one's device list holds (UDIDs compared in any letter case). */
    async appleRegistrations(udids: string[]) {
      const accounts = await db
        .selectFrom('apple_accounts')
        .select(['id', 'name'])
        .where('last_sync_time', 'is not', null)
        .orderBy('create_time', 'asc')
        .orderBy('id', 'asc')
        .execute();
      if (accounts.length === 0 || udids.length === 0) return { accounts, devices: [] };
      const devices = await db
        .selectFrom('apple_devices')
        .select(['account_id', 'udid', 'status'])
        .where(
          sql<string>`lower(udid)`,
          'in',
          udids.map((udid) => udid.toLowerCase()),
        )
        .execute();
      return { accounts, devices };
    },
    async setReviewStatus(id: number, status: DeviceReviewStatus, now: number): Promise<void> {
      await db.updateTable('devices').set({ review_status: status, update_time: now }).where('id', '=', id).execute();
    },
    async findById(id: number) {
      return db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findByUdid(udid: string) {
      return db.selectFrom('devices').select(['id', 'udid']).where('udid', '=', udid).executeTakeFirst();
    },
    /** Which of these UDIDs are registered already. */
    async existingUdids(udids: string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (let at = 0; at < udids.length; at += 500) {
        const rows = await db
          .selectFrom('devices')
          .select('udid')
          .where('udid', 'in', udids.slice(at, at + 500))
          .execute();
        for (const row of rows) found.add(row.udid);
      }
      return found;
    },
    async insert(device: Insertable<DevicesTable>): Promise<number> {
      const row = await db.insertInto('devices').values(device).returning('id').executeTakeFirstOrThrow();
      return Number(row.id);
    },
    /** All or nothing: one transaction for the whole import. */
    async insertMany(devices: Array<Insertable<DevicesTable>>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (let at = 0; at < devices.length; at += 200)
          await trx
            .insertInto('devices')
            .values(devices.slice(at, at + 200))
            .execute();
      });
    },
    async update(id: number, changes: Updateable<DevicesTable>): Promise<void> {
      await db.updateTable('devices').set(changes).where('id', '=', id).execute();
    },
    async delete(id: number): Promise<void> {
      await db.deleteFrom('devices').where('id', '=', id).execute();
    },
  };
}
export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
