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

const tags = ['devices'];

export function devicesRoutes(service: DevicesService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: DEVICE_FILE_MAX_BYTES, files: 1, fields: 2, fieldSize: 256 } });

    app.get('/api/udids', { config: { access: 'admin' }, schema: { tags, querystring: deviceListQuery, response: { 200: pagedEnvelopeSchema(deviceRow) } } }, async (req) => {
      const { rows, total } = await service.list(req.query);
      return ok(rows, { total });
    });

    app.post(
      '/api/udid',
      { config: { access: 'admin' }, schema: { tags, description: 'Adds a device (no `id`) or edits one.', body: saveDeviceBody, response: { 200: envelopeSchema(z.object({ id: z.number() })) } } },
      async (req) => ok(await service.save(req.body, currentUser(req).userId)),
    );

    app.post(
      '/api/udid/review',
      { config: { access: 'admin' }, schema: { tags, description: "确认 (`confirmed`) or 拒绝 (`rejected`) a device, e.g. one an install page visitor registered. Only confirmed devices are registered at Apple and exported.", body: reviewDeviceBody, response: { 200: emptyEnvelope } } },
      async (req) => {
        await service.review(req.body);
        return ok(null);
      },
    );

    app.delete('/api/udid', { config: { access: 'admin' }, schema: { tags, querystring: deviceIdQuery, response: { 200: emptyEnvelope } } }, async (req) => {
      await service.remove(req.query.id);
      return ok(null);
    });

    app.get(
      '/api/udid/export',
      {
        config: { access: 'admin' },
        schema: { tags, description: 'The confirmed devices as a file: `txt` (Apple\'s tab-separated upload format), `csv`, or `deviceids` (Apple\'s plist).', querystring: deviceExportQuery },
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
          description: 'multipart/form-data `file`: Apple\'s device list (.txt, .deviceids) or CSV. Any bad line refuses the file: HTTP 400 with `data.errors` (line and reason).',
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
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('tooLarge', DeviceMessages.fileTooLarge);
          throw error;
        }
        const outcome = await service.importFile(bytes, currentUser(req).userId);
        if (!outcome.ok) return reply.status(400).send({ code: ResultCode.badRequest, msg: outcome.refusal.msg, data: { errors: outcome.refusal.errors } });
        return ok(outcome.result);
      },
    );
  };
}
