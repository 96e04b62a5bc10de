import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  FEEDBACK_MAX_SCREENSHOTS,
  FEEDBACK_PATH,
  FEEDBACK_RECORDING_MAX_MB,
  FEEDBACK_SCREENSHOT_MAX_MB,
  FEEDBACK_TEXT_MAX,
  feedbackSent,
  feedbackSettings,
  feedbackSettingsQuery,
  saveFeedbackSettingsBody,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { FEEDBACK_FILE_LIMIT, readFeedbackForm } from './feedback-upload.ts';
import type { AdmittedFeedback, FeedbackService, FeedbackVisit } from './feedback.service.ts';

const tags = ['测试反馈'];

export function feedbackRoutes(deps: {
  feedback: FeedbackService;
  blobs: BlobStore;
  clock: Clock;
  publicUrl: string | undefined;
}): FastifyPluginAsyncZod {
  const { feedback } = deps;
  return async (app) => {
    await app.register(multipart, {
      limits: { fileSize: FEEDBACK_FILE_LIMIT, files: FEEDBACK_MAX_SCREENSHOTS + 1, fields: 8, fieldSize: 16 * 1024 },
    });

    app.post(
      FEEDBACK_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '提交测试反馈',
          description: `公开，与安装页同样的访问条件：已登录且对该应用有编辑/查看权限的用户或管理员；其他访客须带安装页应答的 \`token\`（请求头 \`app-version-token\`）；免密链接开启时任何人。multipart/form-data：先字段 \`url\`（下载地址）、\`versionId\`（所用的版本）、\`text\`（反馈内容，最多 ${FEEDBACK_TEXT_MAX} 字）、可选 \`deviceModel\`、\`osVersion\`（浏览器读出的设备型号与系统版本，缺省时由 User-Agent 推断）、\`from\`（\`console\`：从控制台的安装包列表提交），再文件 \`files\`：最多 ${FEEDBACK_MAX_SCREENSHOTS} 张截图（PNG/JPEG/GIF/WebP，每张 ≤ ${FEEDBACK_SCREENSHOT_MAX_MB} MB）或 1 段录屏（MP4/MOV/WebM，≤ ${FEEDBACK_RECORDING_MAX_MB} MB），按文件内容判断类型。成为该应用缺陷列表中的一条新缺陷（绑定该版本，按应用的反馈设置指派），并通知接收人（未设置时为该应用的编辑者）；应用设置了开发群机器人（飞书或企业微信）时也发到该群。应用关闭反馈 10028；同一地址对同一链接 15 分钟内最多 10 次、共 50 次，超出 429。`,
          response: { 200: envelopeSchema(feedbackSent) },
        },
      },
      async (req) => {
        if (!req.isMultipart()) throw AppError.badRequest('请使用 multipart/form-data 提交反馈');
        const token = req.headers['app-version-token'];
        const visit: FeedbackVisit = {
          token: typeof token === 'string' ? token : undefined,
          viewer: req.user,
          ip: req.ip,
          userAgent: req.headers['user-agent'],
          baseUrl: shareBaseUrl(req, deps.publicUrl),
        };
        let admitted: AdmittedFeedback | undefined;
        const form = await readFeedbackForm(req.parts(), deps.blobs, deps.clock.now(), async (fields) => {
          admitted = await feedback.admit(fields, visit);
        });
        if (!admitted) throw AppError.badRequest('参数错误');
        return ok(await feedback.send(admitted, form.fields, form.files, visit));
      },
    );

    app.get(
      '/api/app/feedback_settings',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '读取测试反馈设置',
          description:
            '对该应用有编辑/查看权限的用户或管理员（否则 404）。是否接收测试反馈（默认接收）与反馈缺陷的指派人。',
          querystring: feedbackSettingsQuery,
          response: { 200: envelopeSchema(feedbackSettings) },
        },
      },
      async (req) => ok(await feedback.settings(currentUser(req), req.query.appId)),
    );
    app.post(
      '/api/app/feedback_settings',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '保存测试反馈设置',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028，看不到该应用 404）。`enabled` 关闭后安装页不再显示反馈入口，提交被拒绝；`assigneeIds` 为反馈缺陷的指派人（为空时不指派，通知该应用的编辑者）。',
          body: saveFeedbackSettingsBody,
          response: { 200: envelopeSchema(feedbackSettings) },
        },
      },
      async (req) => ok(await feedback.saveSettings(currentUser(req), req.body)),
    );
  };
}
