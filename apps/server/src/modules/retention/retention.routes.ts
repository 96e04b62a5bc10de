import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appRetention,
  appRetentionQuery,
  pinVersionBody,
  RETENTION_DEFAULT_PATH,
  RETENTION_PATH,
  RETENTION_PREVIEW_PATH,
  retentionPreview,
  retentionPreviewQuery,
  retentionRule,
  saveRetentionBody,
  VERSION_PIN_PATH,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import type { RetentionService } from './retention.service.ts';

const tags = ['版本'];

/** An app's retention rule and its dry run, the 保留 mark, and the default rule for apps without one. */
export function retentionRoutes(retention: RetentionService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      RETENTION_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '版本保留规则',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。应用的保留规则：是否启用、每个平台保留最近 `keepLast` 个、保留 `keepDays` 天内的；没有自己的规则时为默认规则（`isDefault`）。',
          querystring: appRetentionQuery,
          response: { 200: envelopeSchema(appRetention) },
        },
      },
      async (req) => ok(await retention.get(currentUser(req), req.query.appId)),
    );
    app.post(
      RETENTION_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '保存版本保留规则',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。启用后由后台任务「版本保留清理」定期删除规则之外的版本；每个平台最新的版本、标记保留的版本、关联到快照的版本始终保留。',
          body: saveRetentionBody,
          response: { 200: envelopeSchema(appRetention) },
        },
      },
      async (req) => ok(await retention.save(currentUser(req), req.body)),
    );
    app.get(
      RETENTION_PREVIEW_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '保留规则试运行',
          description:
            '对该应用有编辑权限的用户或管理员。按给定的 `keepLast`、`keepDays` 列出现在会被删除的版本（从旧到新）、可释放的空间与保留的版本数，不删除任何东西。',
          querystring: retentionPreviewQuery,
          response: { 200: envelopeSchema(retentionPreview) },
        },
      },
      async (req) => ok(await retention.preview(currentUser(req), req.query)),
    );
    app.post(
      VERSION_PIN_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '标记保留版本',
          description: '对该应用有编辑权限的用户或管理员。`pinned` 为 true 时保留规则永远不会删除这个版本。',
          body: pinVersionBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await retention.pin(currentUser(req), req.body);
        return ok(null);
      },
    );
    app.get(
      RETENTION_DEFAULT_PATH,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '新应用的默认保留规则',
          description: '管理员。没有自己规则的应用使用的保留规则。',
          response: { 200: envelopeSchema(retentionRule) },
        },
      },
      async () => ok(await retention.getDefault()),
    );
    app.post(
      RETENTION_DEFAULT_PATH,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '设置默认保留规则',
          description: '管理员。设置没有自己规则的应用（包括新应用）使用的保留规则。',
          body: retentionRule,
          response: { 200: envelopeSchema(retentionRule) },
        },
      },
      async (req) => ok(await retention.setDefault(req.body)),
    );
  };
}
