import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_FILE_MAX_BYTES,
  DeviceMessages,
  ResultCode,
  deviceExportQuery,
  deviceIdQuery,
  deviceImportFailure,
  deviceImportResult,
  deviceListQuery,
  deviceRow,
  reviewDeviceBody,
  saveDeviceBody,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { DevicesService } from './devices.service.ts';

const tags = ['设备'];

export function devicesRoutes(service: DevicesService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: DEVICE_FILE_MAX_BYTES, files: 1, fields: 2, fieldSize: 256 } });

    app.get(
      '/api/udids',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '设备列表',
          description:
            '管理员（角色等级 100）。分页列出登记的 iOS/Mac 设备（`pageSize` 默认 20），`keyword` 按 UDID、名称或型号模糊查找，可按平台 `platform` 与审核状态 `reviewStatus` 筛选；返回 `data` 与 `total`。',
          querystring: deviceListQuery,
          response: { 200: pagedEnvelopeSchema(deviceRow) },
        },
      },
      async (req) => {
        const { rows, total } = await service.list(req.query);
        return ok(rows, { total });
      },
    );

    app.post(
      '/api/udid',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '添加或编辑设备',
          description:
            '管理员（角色等级 100）。不带 `id` 为添加，带 `id` 为编辑：UDID、设备名称、平台（ios/mac）、型号、备注。UDID 格式不正确 400；UDID 已存在 409「设备 … 已存在」；设备不存在 404。',
          body: saveDeviceBody,
          response: { 200: envelopeSchema(z.object({ id: z.number() })) },
        },
      },
      async (req) => ok(await service.save(req.body, currentUser(req).userId)),
    );

    app.post(
      '/api/udid/review',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '审核设备',
          description:
            '管理员（角色等级 100）。确认（`confirmed`）或拒绝（`rejected`）一台设备，例如安装页访客自行登记的设备；只有已确认的设备会注册到苹果并被导出。设备不存在 404。',
          body: reviewDeviceBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.review(req.body);
        return ok(null);
      },
    );

    app.delete(
      '/api/udid',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '删除设备',
          description: '管理员（角色等级 100）。按 `id` 删除设备；设备不存在 404「设备不存在」。',
          querystring: deviceIdQuery,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.remove(req.query.id);
        return ok(null);
      },
    );

    app.get(
      '/api/udid/export',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '导出设备列表',
          description:
            '管理员（角色等级 100）。以文件下载已确认的设备：`format` 为 txt（苹果后台上传用的制表符分隔格式）、csv 或 deviceids（苹果的 plist 格式）。应答是文件本身，不是 JSON 信封。',
          querystring: deviceExportQuery,
        },
      },
      async (req, reply) => {
        const file = await service.exportFile(req.query.format);
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="devices.${file.extension}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );

    app.post(
      '/api/udid/import',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '导入设备列表',
          description:
            '管理员（角色等级 100）。multipart/form-data 的 `file`：苹果的设备列表（.txt、.deviceids）或 CSV，不超过 1 MB（超过 413）。任何一行有误则整个文件不导入：400，`data.errors` 列出行号与原因；已登记的 UDID 保持不变并在 `existing` 中列出。返回新增数 `added`。',
          response: { 200: envelopeSchema(deviceImportResult), 400: envelopeSchema(deviceImportFailure.nullable()) },
        },
      },
      async (req, reply) => {
        if (!req.isMultipart()) throw AppError.badRequest(DeviceMessages.fileMissing);
        let bytes: Buffer;
        try {
          const file = await req.file();
          if (!file) throw AppError.badRequest(DeviceMessages.fileMissing);
          bytes = await file.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new AppError('tooLarge', DeviceMessages.fileTooLarge);
          throw error;
        }
        const outcome = await service.importFile(bytes, currentUser(req).userId);
        if (!outcome.ok)
          return reply
            .status(400)
            .send({ code: ResultCode.badRequest, msg: outcome.refusal.msg, data: { errors: outcome.refusal.errors } });
        return ok(outcome.result);
      },
    );
  };
}
