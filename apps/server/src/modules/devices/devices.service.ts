import {
  DeviceMessages,
  describeImportError,
  normalizeUdid,
  type DeviceExportFormat,
  type DeviceImportError,
  type DeviceAppleRegistration,
  type DeviceImportResult,
  type DeviceListQuery,
  type DeviceRow,
  type ReviewDeviceBody,
  type SaveDeviceInput,
} from '@release/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDeviceFile, parseDeviceFile } from './device-file.ts';
import type { DevicesRepository } from './devices.repository.ts';

type DeviceListRow = Awaited<ReturnType<DevicesRepository['list']>>['rows'][number];

function present(row: DeviceListRow, apple: DeviceAppleRegistration[]): DeviceRow {
  return {
    id: row.id,
    udid: row.udid,
    deviceName: row.device_name,
    platform: row.platform,
    model: row.model,
    remark: row.remark,
    reviewStatus: row.review_status,
    apple,
    createTime: row.create_time,
    updateTime: row.update_time,
    createBy: row.createBy,
  };
}

/** A refused import: the lines to fix; nothing was stored. */
export interface DeviceImportRefusal {
  msg: string;
  errors: DeviceImportError[];
}

/** Device IDs (UDIDs) for ad-hoc and development installs, managed by admins one by one or as Apple's device files. */
export function createDevicesService(deps: { devices: DevicesRepository; clock: Clock }) {
  const { devices, clock } = deps;

  return {
    async list(query: DeviceListQuery): Promise<{ rows: DeviceRow[]; total: number }> {
      const { rows, total } = await devices.list(
        { keyword: query.keyword || undefined, platform: query.platform, reviewStatus: query.reviewStatus },
        (query.pageNo - 1) * query.pageSize,
        query.pageSize,
      );
      const apple = await devices.appleRegistrations(rows.map((row) => row.udid));
      const appleOf = (udid: string): DeviceAppleRegistration[] =>
        apple.accounts.map((account) => {
          const found = apple.devices.find(
            (d) => Number(d.account_id) === Number(account.id) && d.udid.toLowerCase() === udid.toLowerCase(),
          );
          return {
            accountId: Number(account.id),
            accountName: account.name,
            registered: Boolean(found),
            status: found?.status ?? null,
          };
        });
      return { rows: rows.map((row) => present(row, appleOf(row.udid))), total };
    },

    /** An admin's 确认 or 拒绝; a rejected device stays listed but never goes to Apple or into an export. */
    async review(body: { id: number; reviewStatus: ReviewDeviceBody['reviewStatus'] }): Promise<void> {
      if (!(await devices.findById(body.id))) throw AppError.notFound(DeviceMessages.deviceNotFound);
      await devices.setReviewStatus(body.id, body.reviewStatus, clock.now());
    },

    /** Adds a device (no id) or edits one; the UDID is checked for its platform and must be unique. */
    async save(body: SaveDeviceInput, userId: number): Promise<{ id: number }> {
      const udid = normalizeUdid(body.udid, body.platform);
      if (!udid) throw AppError.badRequest(DeviceMessages.udidInvalid(body.platform));
      const same = await devices.findByUdid(udid);
      if (same && same.id !== body.id) throw AppError.conflict(DeviceMessages.udidExists(udid));
      const now = clock.now();
      const fields = {
        udid,
        device_name: body.deviceName,
        platform: body.platform,
        model: body.model ?? null,
        remark: body.remark ?? '',
        update_time: now,
      };
      try {
        if (body.id === undefined)
          return { id: await devices.insert({ ...fields, create_by: userId, create_time: now }) };
        if (!(await devices.findById(body.id))) throw AppError.notFound(DeviceMessages.deviceNotFound);
        await devices.update(body.id, fields);
        return { id: body.id };
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.conflict(DeviceMessages.udidExists(udid));
        throw error;
      }
    },

    async remove(id: number): Promise<void> {
      if (!(await devices.findById(id))) throw AppError.notFound(DeviceMessages.deviceNotFound);
      await devices.delete(id);
    },

    /**
     * Imports a device file. Any bad line refuses the whole file (every bad line is reported);
     * UDIDs already registered are left as they are and listed, so an exported file imports again cleanly.
     */
    async importFile(
      bytes: Buffer,
      userId: number,
    ): Promise<{ ok: true; result: DeviceImportResult } | { ok: false; refusal: DeviceImportRefusal }> {
      const parsed = parseDeviceFile(bytes);
      if (!parsed) throw AppError.badRequest(DeviceMessages.fileUnreadable);
      if (parsed.errors.length > 0) {
        const first = parsed.errors[0] as DeviceImportError;
        return {
          ok: false,
          refusal: {
            msg: DeviceMessages.importFailed(describeImportError(first), parsed.errors.length),
            errors: parsed.errors,
          },
        };
      }
      if (parsed.devices.length === 0) throw AppError.badRequest(DeviceMessages.fileEmpty);
      const known = await devices.existingUdids(parsed.devices.map((d) => d.udid));
      const fresh = parsed.devices.filter((d) => !known.has(d.udid));
      const now = clock.now();
      try {
        await devices.insertMany(
          fresh.map((d) => ({
            udid: d.udid,
            device_name: d.deviceName,
            platform: d.platform,
            model: null,
            remark: '',
            create_by: userId,
            create_time: now,
            update_time: now,
          })),
        );
      } catch (error) {
        // Someone added one of these devices meanwhile: nothing was stored, the admin can import again.
        if (isUniqueViolation(error)) throw AppError.conflict(DeviceMessages.importRace);
        throw error;
      }
      return {
        ok: true,
        result: {
          added: fresh.length,
          existing: parsed.devices.filter((d) => known.has(d.udid)).map((d) => ({ line: d.line, udid: d.udid })),
        },
      };
    },

    /** Confirmed devices only: pending and rejected ones are not handed on to Apple. */
    async exportFile(format: DeviceExportFormat) {
      const rows = await devices.allConfirmed();
      return formatDeviceFile(
        rows.map((r) => ({ udid: r.udid, deviceName: r.device_name, platform: r.platform })),
        format,
      );
    },
  };
}
export type DevicesService = ReturnType<typeof createDevicesService>;
