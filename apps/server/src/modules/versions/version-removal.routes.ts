import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  VERSION_REMOVAL_PREVIEW_PATH,
  VERSION_REMOVE_PATH,
  versionRemovalPreview,
  versionRemovalQuery,
  versionRemovalResult,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { VersionRemovalService } from './version-removal.service.ts';

const tags = ['版本'];
const who = '对该应用有编辑权限的用户或管理员（查看用户 10028，非成员 404「应用不存在或您没有该应用的权限」）。';

/** Removing a build: what the confirm lists, then the removal (its files go in the background). */
export function versionRemovalRoutes(removal: VersionRemovalService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      VERSION_REMOVAL_PREVIEW_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '删除版本前的清单',
          description: `${who}列出删除版本 \`id\` 会删掉的文件（安装包、图标、附件、重签名副本）及大小，仍被其他记录使用而保留的文件及原因，可释放的空间，以及仍会显示它（已删除）的工作流条目数。版本已删除时 404「该版本已删除」。`,
          querystring: versionRemovalQuery,
          response: { 200: envelopeSchema(versionRemovalPreview) },
        },
      },
      async (req) => ok(await removal.preview(currentUser(req), req.query)),
    );
    app.post(
      VERSION_REMOVE_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '删除版本',
          description: `${who}删除应用 \`appId\` 的版本 \`id\` 及由它重签名的副本：立即从所有列表中消失，文件由后台任务删除（其他记录仍在使用的保留）。重复删除 404「该版本已删除」；正在重签名时 409。`,
          body: versionRemovalQuery,
          response: { 200: envelopeSchema(versionRemovalResult) },
        },
      },
      async (req) => ok(await removal.removeAsEditor(currentUser(req), req.body)),
    );
  };
}
