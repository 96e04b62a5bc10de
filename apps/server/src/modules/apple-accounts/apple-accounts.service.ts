import {
  AppleAccountMessages,
  type AddAppleAccountBody,
  type AppleAccountRow,
  type BindAppleAccountBody,
  type UpdateAppleAccountBody,
} from '@release/contract';
import { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import { createAscClient, readP8, type AscClient, type AscCredentials } from '../../integrations/apple/asc-client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { callApple } from './apple-errors.ts';
import type { AppleAccountsRepository } from './apple-accounts.repository.ts';

export interface AppleAccountsDeps {
  accounts: AppleAccountsRepository;
  box: SecretBox;
  clock: Clock;
  /** APPLE_API_BASE_URL */
  baseUrl: string;
}

type AccountRecord = NonNullable<Awaited<ReturnType<AppleAccountsRepository['findById']>>>;

/** A client for a stored account: the only place its .p8 is unsealed. */
export function clientFor(deps: AppleAccountsDeps, account: AccountRecord): AscClient {
  return createAscClient({
    baseUrl: deps.baseUrl,
    credentials: { issuerId: account.issuer_id, keyId: account.key_id, p8: deps.box.open(account.private_key_sealed) },
    now: deps.clock.now,
  });
}

export async function findAccount(deps: AppleAccountsDeps, id: number): Promise<AccountRecord> {
  const account = await deps.accounts.findById(id);
  if (!account) throw AppError.notFound(AppleAccountMessages.accountNotFound);
  return account;
}

/** Normalises a pasted or uploaded .p8 and proves it is an EC P-256 key. */
function checkedP8(raw: string): string {
  const p8 = `${raw.replace(/\r\n/g, '\n').trim()}\n`;
  try {
    readP8(p8);
  } catch {
    throw AppError.badRequest(AppleAccountMessages.p8Invalid);
  }
  return p8;
}

/** The one field the probe reads: the team id Apple calls a bundle id's seedId. */
const firstBundleId = z.object({ data: z.array(z.object({ attributes: z.object({ seedId: z.string().nullish() }) })) });

/** Proves the key works with a real call; the team id comes from the answer when Apple has bundle ids. */
async function probe(deps: AppleAccountsDeps, credentials: AscCredentials): Promise<string | null> {
  const client = createAscClient({ baseUrl: deps.baseUrl, credentials, now: deps.clock.now });
  const answer = await callApple(() => client.request('GET', '/v1/bundleIds?limit=1', firstBundleId));
  return answer?.data[0]?.attributes.seedId ?? null;
}

/** App Store Connect API keys: stored with the .p8 sealed, validated against Apple, bound to apps and certificates. */
export function createAppleAccountsService(deps: AppleAccountsDeps) {
  const { accounts, box, clock } = deps;

  async function list(): Promise<AppleAccountRow[]> {
    const rows = await accounts.list();
    const ids = rows.map((r) => r.id);
    const [bindings, devices, certificates, bundleIds, locals, localCerts] = await Promise.all([
      accounts.bindings(ids),
      accounts.devicesOf(ids),
      accounts.certificatesOf(ids),
      accounts.bundleIdsOf(ids),
      accounts.localDevices(),
      accounts.localCertificates(),
    ]);
    const localByUdid = new Map(locals.map((d) => [d.udid.toLowerCase(), d]));
    const certBySha1 = new Map(localCerts.map((c) => [c.sha1, c.id]));
    return rows.map((row) => {
      const own = devices.filter((d) => d.account_id === row.id);
      const atApple = new Set(own.map((d) => d.udid.toLowerCase()));
      return {
        id: row.id,
        name: row.name,
        issuerId: row.issuer_id,
        keyId: row.key_id,
        teamId: row.team_id,
        remark: row.remark,
        createTime: row.create_time,
        updateTime: row.update_time,
        createBy: row.createBy,
        lastSyncTime: row.last_sync_time,
        lastSync: row.last_sync,
        appIds: bindings
          .filter((b) => b.account_id === row.id && b.target_type === 'app')
          .map((b) => Number(b.target_id)),
        certificateIds: bindings
          .filter((b) => b.account_id === row.id && b.target_type === 'certificate')
          .map((b) => Number(b.target_id)),
        devices: own.map((d) => ({
          appleId: d.apple_id,
          udid: d.udid,
          name: d.name,
          platform: d.platform,
          deviceClass: d.device_class,
          status: d.status,
          model: d.model,
          localDeviceId: localByUdid.get(d.udid.toLowerCase())?.id ?? null,
        })),
        certificates: certificates
          .filter((c) => c.account_id === row.id)
          .map((c) => ({
            appleId: c.apple_id,
            name: c.name,
            certificateType: c.certificate_type,
            displayName: c.display_name,
            serialNumber: c.serial_number,
            expireTime: c.expire_time,
            localCertificateId: certBySha1.get(c.sha1) ?? null,
          })),
        bundleIds: bundleIds
          .filter((b) => b.account_id === row.id)
          .map((b) => ({ appleId: b.apple_id, identifier: b.identifier, name: b.name, platform: b.platform })),
        unregisteredDevices: locals
          .filter((d) => d.platform === 'ios' && d.review_status === 'confirmed' && !atApple.has(d.udid.toLowerCase()))
          .map((d) => ({ id: d.id, udid: d.udid, deviceName: d.device_name })),
      };
    });
  }

  async function one(id: number): Promise<AppleAccountRow> {
    const row = (await list()).find((r) => r.id === id);
    if (!row) throw AppError.notFound(AppleAccountMessages.accountNotFound);
    return row;
  }

  return {
    list,
    one,

    async add(body: AddAppleAccountBody & { keyId: string }, userId: number): Promise<AppleAccountRow> {
      const p8 = checkedP8(body.privateKey);
      if (await accounts.findByKeyId(body.keyId)) throw AppError.conflict(AppleAccountMessages.keyIdExists(body.keyId));
      const teamId = await probe(deps, { issuerId: body.issuerId, keyId: body.keyId, p8 });
      const now = clock.now();
      let id: number;
      try {
        id = await accounts.insert({
          name: body.name,
          issuer_id: body.issuerId.toLowerCase(),
          key_id: body.keyId,
          private_key_sealed: box.seal(p8),
          team_id: teamId,
          remark: body.remark ?? '',
          last_sync: null,
          last_sync_time: null,
          create_by: userId,
          create_time: now,
          update_time: now,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.conflict(AppleAccountMessages.keyIdExists(body.keyId));
        throw error;
      }
      return one(id);
    },

    /** Edits name, ids and remark; a new .p8 (or new ids) is validated with Apple before it is stored. */
    async update(body: UpdateAppleAccountBody & { id: number; keyId: string }): Promise<AppleAccountRow> {
      const account = await findAccount(deps, body.id);
      const same = await accounts.findByKeyId(body.keyId);
      if (same && Number(same.id) !== account.id) throw AppError.conflict(AppleAccountMessages.keyIdExists(body.keyId));
      const p8 = body.privateKey ? checkedP8(body.privateKey) : box.open(account.private_key_sealed);
      const credentialsChanged =
        Boolean(body.privateKey) || body.keyId !== account.key_id || body.issuerId.toLowerCase() !== account.issuer_id;
      const teamId = credentialsChanged
        ? await probe(deps, { issuerId: body.issuerId, keyId: body.keyId, p8 })
        : account.team_id;
      try {
        await accounts.update(account.id, {
          name: body.name,
          issuer_id: body.issuerId.toLowerCase(),
          key_id: body.keyId,
          ...(body.privateKey ? { private_key_sealed: box.seal(p8) } : {}),
          team_id: teamId ?? account.team_id,
          remark: body.remark ?? account.remark,
          update_time: clock.now(),
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.conflict(AppleAccountMessages.keyIdExists(body.keyId));
        throw error;
      }
      return one(account.id);
    },

    async bind(
      body: BindAppleAccountBody & { id: number; appIds: number[]; certificateIds: number[] },
    ): Promise<AppleAccountRow> {
      const account = await findAccount(deps, body.id);
      const appIds = [...new Set(body.appIds)];
      const certificateIds = [...new Set(body.certificateIds)];
      const apps = await accounts.existingAppIds(appIds);
      const missingApp = appIds.find((id) => !apps.has(id));
      if (missingApp !== undefined) throw AppError.badRequest(AppleAccountMessages.appNotFound(missingApp));
      const certs = await accounts.existingCertificateIds(certificateIds);
      const missingCert = certificateIds.find((id) => !certs.has(id));
      if (missingCert !== undefined) throw AppError.badRequest(AppleAccountMessages.certificateNotFound(missingCert));
      await accounts.bind(account.id, appIds, certificateIds);
      return one(account.id);
    },

    async remove(id: number): Promise<void> {
      await findAccount(deps, id);
      await accounts.delete(id);
    },
  };
}
export type AppleAccountsService = ReturnType<typeof createAppleAccountsService>;
