import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  orphanCheck,
  orphansRemoved,
  removeOrphansBody,
  STORAGE_ORPHANS_CHECK_PATH,
  STORAGE_ORPHANS_REMOVE_PATH,
  STORAGE_USAGE_PATH,
  storageUsage,
} from '@release/contract';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { OrphanCheckService } from './orphan-check.ts';
import type { StorageUsageService } from './storage-usage.service.ts';

const tags = ['存储'];

/** The storage page's figures and the orphaned-file check (admins). */
export function storageUsageRoutes(usage: StorageUsageService, orphans: OrphanCheckService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      STORAGE_USAGE_PATH,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '存储用量',
          description:
            '管理员。现有版本的安装包占用：合计、按应用与平台、最大的安装包，以及最近 12 周每周新增与删除释放的字节数。',
          response: { 200: envelopeSchema(storageUsage) },
        },
      },
      async () => ok(await usage.usage()),
    );
    app.post(
      STORAGE_ORPHANS_CHECK_PATH,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '检查孤立文件',
          description:
            '管理员。读取整个存储（本地磁盘或 S3），列出安装包与附件目录中没有任何版本、进行中的上传或重签名使用的文件；不删除任何东西。',
          response: { 200: envelopeSchema(orphanCheck) },
        },
      },
      async () => ok(await orphans.check()),
    );
    app.post(
      STORAGE_ORPHANS_REMOVE_PATH,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '删除孤立文件',
          description: '管理员。删除给出的孤立文件；每个文件删除前再检查一次，此时已被使用的会跳过。',
          body: removeOrphansBody,
          response: { 200: envelopeSchema(orphansRemoved) },
        },
      },
      async (req) => ok(await orphans.remove(req.body.keys)),
    );
  };
}
