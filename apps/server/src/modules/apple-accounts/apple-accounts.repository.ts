import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import { appleSyncResult, type AppleSyncResult } from '@release/contract';
import { jsonColumn } from '../../db/json-column.ts';
import type {
  AppleAccountsTable,
  AppleBundleIdsTable,
  AppleCertificatesTable,
  AppleDevicesTable,
  Database,
} from '../../db/schema.ts';

/** What the last sync with Apple found (counts). */
const lastSync = jsonColumn('apple_accounts.last_sync', appleSyncResult);

type Row<T> = Omit<Insertable<T>, 'id' | 'account_id'>;
export type AppleDeviceInput = Row<AppleDevicesTable>;
export type AppleCertificateInput = Row<AppleCertificatesTable>;
export type AppleBundleIdInput = Row<AppleBundleIdsTable>;

export function createAppleAccountsRepository(db: Kysely<Database>) {
  return {
    /** Accounts with the adder's name; the sealed key stays behind. */
    async list() {
      const rows = await db
        .selectFrom('apple_accounts as a')
        .leftJoin('users as u', 'u.id', 'a.create_by')
        .select([
          'a.id',
          'a.name',
          'a.issuer_id',
          'a.key_id',
          'a.team_id',
          'a.remark',
          'a.last_sync',
          'a.last_sync_time',
          'a.create_time',
          'a.update_time',
          'u.username as createBy',
        ])
        .orderBy('a.create_time', 'desc')
        .orderBy('a.id', 'desc')
        .execute();
      return rows.map((row) => ({ ...row, last_sync: row.last_sync === null ? null : lastSync.decode(row.last_sync) }));
    },
    async findById(id: number) {
      return db.selectFrom('apple_accounts').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findByKeyId(keyId: string) {
      return db.selectFrom('apple_accounts').select('id').where('key_id', '=', keyId).executeTakeFirst();
    },
    async insert(row: Insertable<AppleAccountsTable>): Promise<number> {
      const inserted = await db.insertInto('apple_accounts').values(row).returning('id').executeTakeFirstOrThrow();
      return Number(inserted.id);
    },
    async update(id: number, changes: Updateable<AppleAccountsTable>): Promise<void> {
      await db.updateTable('apple_accounts').set(changes).where('id', '=', id).execute();
    },
    async delete(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const table of [
          'apple_devices',
          'apple_certificates',
          'apple_bundle_ids',
          'apple_account_bindings',
        ] as const)
          await trx.deleteFrom(table).where('account_id', '=', id).execute();
        await trx.deleteFrom('apple_accounts').where('id', '=', id).execute();
      });
    },

    async bindings(accountIds: number[]) {
      if (accountIds.length === 0) return [];
      return db.selectFrom('apple_account_bindings').selectAll().where('account_id', 'in', accountIds).execute();
    },
    /** Replaces what the account is bound to; a target bound to another account moves to this one. */
    async bind(accountId: number, appIds: number[], certificateIds: number[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('apple_account_bindings').where('account_id', '=', accountId).execute();
        const rows = [
          ...appIds.map((id) => ({ target_type: 'app' as const, target_id: id })),
          ...certificateIds.map((id) => ({ target_type: 'certificate' as const, target_id: id })),
        ];
        for (const row of rows) {
          await trx
            .deleteFrom('apple_account_bindings')
            .where('target_type', '=', row.target_type)
            .where('target_id', '=', row.target_id)
            .execute();
          await trx
            .insertInto('apple_account_bindings')
            .values({ account_id: accountId, ...row })
            .execute();
        }
      });
    },
    async existingAppIds(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('apps').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((r) => Number(r.id)));
    },
    async existingCertificateIds(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('certificates').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((r) => Number(r.id)));
    },

    async devicesOf(accountIds: number[]) {
      if (accountIds.length === 0) return [];
      return db
        .selectFrom('apple_devices')
        .selectAll()
        .where('account_id', 'in', accountIds)
        .orderBy('id', 'asc')
        .execute();
    },
    async certificatesOf(accountIds: number[]) {
      if (accountIds.length === 0) return [];
      return db
        .selectFrom('apple_certificates')
        .selectAll()
        .where('account_id', 'in', accountIds)
        .orderBy('id', 'asc')
        .execute();
    },
    async bundleIdsOf(accountIds: number[]) {
      if (accountIds.length === 0) return [];
      return db
        .selectFrom('apple_bundle_ids')
        .selectAll()
        .where('account_id', 'in', accountIds)
        .orderBy('identifier', 'asc')
        .execute();
    },
    async addDevice(accountId: number, device: AppleDeviceInput): Promise<void> {
      await db
        .deleteFrom('apple_devices')
        .where('account_id', '=', accountId)
        .where('apple_id', '=', device.apple_id)
        .execute();
      await db
        .insertInto('apple_devices')
        .values({ ...device, account_id: accountId })
        .execute();
    },

    /** Replaces the account's copy of Apple's lists and records the sync, in one transaction. */
    async replaceSynced(
      accountId: number,
      synced: { devices: AppleDeviceInput[]; certificates: AppleCertificateInput[]; bundleIds: AppleBundleIdInput[] },
      account: Omit<Updateable<AppleAccountsTable>, 'last_sync'> & { last_sync: AppleSyncResult },
      also: (trx: Transaction<Database>) => Promise<void>,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const chunks = async <T>(table: 'apple_devices' | 'apple_certificates' | 'apple_bundle_ids', rows: T[]) => {
          await trx.deleteFrom(table).where('account_id', '=', accountId).execute();
          for (let at = 0; at < rows.length; at += 200)
            await trx
              .insertInto(table)
              .values(rows.slice(at, at + 200).map((r) => ({ ...r, account_id: accountId })) as never)
              .execute();
        };
        await chunks('apple_devices', synced.devices);
        await chunks('apple_certificates', synced.certificates);
        await chunks('apple_bundle_ids', synced.bundleIds);
        await trx
          .updateTable('apple_accounts')
          .set({ ...account, last_sync: lastSync.encode(account.last_sync) })
          .where('id', '=', accountId)
          .execute();
        await also(trx);
      });
    },

    /** Local devices (id, udid, name, platform, an admin's review). */
    async localDevices() {
      return db
        .selectFrom('devices')
        .select(['id', 'udid', 'device_name', 'platform', 'review_status'])
        .orderBy('create_time', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },
    /** Uploaded certificates by SHA-1 (for matching Apple's). */
    async localCertificates() {
      return db.selectFrom('certificates').select(['id', 'sha1', 'common_name']).execute();
    },
  };
}
export type AppleAccountsRepository = ReturnType<typeof createAppleAccountsRepository>;
