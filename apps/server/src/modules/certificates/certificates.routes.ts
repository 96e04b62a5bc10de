import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CERT_FILE_MAX_BYTES,
  CERT_MAX_PROFILES,
  CertMessages,
  certificateIdQuery,
  certificateRow,
  harmonyCertificateRow,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import type { CertificateUpload, CertificatesService } from './certificates.service.ts';
import type { HarmonyCertificatesService } from './harmony-certificates.service.ts';

const tags = ['证书'];

function multipartCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Reads the form: `password`, one `p12` file, and `profiles` (any other file field). Each file ≤ 1 MB. */
export async function readUpload(req: FastifyRequest): Promise<CertificateUpload> {
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

export function certificatesRoutes(
  service: CertificatesService,
  harmony: HarmonyCertificatesService,
): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, {
      limits: {
        fileSize: CERT_FILE_MAX_BYTES,
        files: CERT_MAX_PROFILES + 1,
        fields: 4,
        fieldSize: 1024,
        parts: CERT_MAX_PROFILES + 5,
      },
    });

    app.post(
      '/api/cert_upload',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '上传签名证书',
          description:
            '管理员（角色等级 100）。multipart/form-data：`password`（.p12 的密码）、`p12`（一个 .p12 证书，含私钥）、`profiles`（一个或多个 .mobileprovision 描述文件，最多 20 个），每个文件不超过 1 MB（超过 413）。证书密码错误、不是有效的 .p12、缺私钥、私钥与证书不匹配、证书已过期或尚未生效等都以 400 和中文原因拒绝；同一证书已上传 409。返回证书的团队、主 Bundle ID、有效期等。',
          response: { 200: envelopeSchema(certificateRow) },
        },
      },
      async (req) => ok(await service.upload(await readUpload(req), currentUser(req).userId)),
    );

    app.get(
      '/api/cert_list',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '证书列表',
          description:
            '管理员（角色等级 100）。已上传的签名证书（团队、主 Bundle ID、有效期等）及其描述文件，从不返回私钥与密码。',
          response: { 200: envelopeSchema(z.array(certificateRow)) },
        },
      },
      async () => ok(await service.list()),
    );

    app.delete(
      '/api/cert',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '删除证书',
          description: '管理员（角色等级 100）。按 `id` 删除证书及其描述文件；证书不存在 404。',
          querystring: certificateIdQuery,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.remove(req.query.id);
        return ok(null);
      },
    );

    app.post(
      '/api/harmony_cert_upload',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '上传鸿蒙签名证书',
          description:
            '管理员（角色等级 100）。multipart/form-data：`password`（.p12 的密码）、`p12`（签鸿蒙应用的 .p12，含私钥，华为签发的多为 EC P-256），不超过 1 MB。密码错误、不是有效的 .p12、缺私钥、证书已过期或尚未生效以与 iOS 证书相同的 400 和中文原因拒绝；同一证书已上传 409。私钥与密码加密保存。企业内部分发的鸿蒙版本没有随版本上传的签名清单时，服务器用与安装包签名证书同一密钥的鸿蒙签名证书签名安装清单。',
          response: { 200: envelopeSchema(harmonyCertificateRow) },
        },
      },
      async (req) => ok(await harmony.upload(await readUpload(req), currentUser(req).userId)),
    );

    app.get(
      '/api/harmony_cert_list',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '鸿蒙签名证书列表',
          description:
            '管理员（角色等级 100）。已上传的鸿蒙签名证书（主题、签发者、有效期、公钥），从不返回私钥与密码。',
          response: { 200: envelopeSchema(z.array(harmonyCertificateRow)) },
        },
      },
      async () => ok(await harmony.list()),
    );

    app.delete(
      '/api/harmony_cert',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '删除鸿蒙签名证书',
          description: '管理员（角色等级 100）。按 `id` 删除鸿蒙签名证书；不存在 404。',
          querystring: certificateIdQuery,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await harmony.remove(req.query.id);
        return ok(null);
      },
    );
  };
}
