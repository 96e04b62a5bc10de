import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CERT_FILE_MAX_BYTES, CERT_MAX_PROFILES, CertMessages, certificateIdQuery, certificateRow } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import type { CertificateUpload, CertificatesService } from './certificates.service.ts';

const tags = ['certificates'];

function multipartCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Reads the form: `password`, one `p12` file, and `profiles` (any other file field). Each file ≤ 1 MB. */
async function readUpload(req: FastifyRequest): Promise<CertificateUpload> {
  if (!req.isMultipart()) throw AppError.badRequest(CertMessages.notMultipart);
  const upload: CertificateUpload = { p12: null, password: null, profiles: [] };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'password') upload.password = String(part.value);
        continue;
      }
      const bytes = await part.toBuffer();
      const isP12 = part.fieldname === 'p12' || (part.fieldname !== 'profiles' && /\.(p12|pfx)$/i.test(part.filename));
      if (isP12) {
        if (upload.p12) throw AppError.badRequest(CertMessages.p12Twice);
        upload.p12 = { fileName: part.filename, bytes };
      } else {
        upload.profiles.push({ fileName: part.filename, bytes });
      }
    }
  } catch (error) {
    const code = multipartCode(error);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('tooLarge', CertMessages.fileTooLarge);
    if (code === 'FST_FILES_LIMIT') throw AppError.badRequest(CertMessages.tooManyProfiles);
    throw error;
  }
  return upload;
}

export function certificatesRoutes(service: CertificatesService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: CERT_FILE_MAX_BYTES, files: CERT_MAX_PROFILES + 1, fields: 4, fieldSize: 1024, parts: CERT_MAX_PROFILES + 5 } });

    app.post(
      '/api/cert_upload',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          description: 'multipart/form-data: `password` (the .p12 password), `p12` (one .p12 file), `profiles` (one or more .mobileprovision files). Each file at most 1 MB.',
          response: { 200: envelopeSchema(certificateRow) },
        },
      },
      async (req) => ok(await service.upload(await readUpload(req), currentUser(req).userId)),
    );

    app.get('/api/cert_list', { config: { access: 'admin' }, schema: { tags, response: { 200: envelopeSchema(z.array(certificateRow)) } } }, async () => ok(await service.list()));

    app.delete('/api/cert', { config: { access: 'admin' }, schema: { tags, querystring: certificateIdQuery, response: { 200: emptyEnvelope } } }, async (req) => {
      await service.remove(req.query.id);
      return ok(null);
    });
  };
}
