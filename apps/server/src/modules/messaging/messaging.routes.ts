import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deliveryListQuery,
  deliveryRow,
  myDeliveriesQuery,
  retryDeliveryBody,
  sendMessageBody,
  sendMultiCommitsBody,
  sendResult,
  sendTodayLogsBody,
} from '@release/contract';
import { z } from 'zod';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import type { DeliveryLogService } from './delivery-log.service.ts';
import type { MessagingService } from './messaging.service.ts';

const tags = ['消息推送'];
const sent = { 200: envelopeSchema(sendResult) };

export function messagingRoutes(deps: {
  messaging: MessagingService;
  log: DeliveryLogService;
  publicUrl?: string;
}): FastifyPluginAsyncZod {
  const { messaging, log } = deps;
  return async (app) => {
    app.post(
      '/api/send_lark_message',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '推送到飞书',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。把一条提交记录 `commitId` 和/或一个安装包（`appVersionId` 或 `indexNo`）推送到飞书，`receiveType` 决定接收者：commit 工作流的群机器人、chat 应用的测试群（`chatEnv` DevTest）或正式群（PreFavTest，仅管理员）、self 自己、view_app 该应用的查看用户；subscribe 订阅者与 user_ids 指定用户仅管理员（否则 10028）。消息进入发送队列，返回各条投递及因未绑定飞书而跳过的用户。未设置机器人地址或未配置飞书时 400。',
          body: sendMessageBody,
          response: sent,
        },
      },
      async (req) => ok(await messaging.send(currentUser(req), 'lark', req.body, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/send_wecom_message',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '推送到企业微信',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。把一条提交记录或一个安装包推送到企业微信群机器人：工作流的机器人（`receiveType` commit）或应用的测试群/正式群（chat，正式群 PreFavTest 仅管理员）；企业微信不支持推送给个人（400）。未设置机器人地址 400。',
          body: sendMessageBody,
          response: sent,
        },
      },
      async (req) => ok(await messaging.send(currentUser(req), 'wecom', req.body, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/workflow/send_multi_commits',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '批量推送提交记录',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。推送工作流 `workflowId` 中选中的提交记录 `commitIds`，或 `all: true` 时推送 `startTime` 到 `endTime`（含）之间显示的全部记录；接收者同推送到飞书（默认工作流的群机器人）。没有选中记录或时间段内没有记录 400。',
          body: sendMultiCommitsBody,
          response: sent,
        },
      },
      async (req) =>
        ok(await messaging.sendMultiCommits(currentUser(req), req.body, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/workflow/send_today_logs',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '推送当日日志',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。推送工作流 `workflowId` 在 [`startDate`, `nextDate`) 之间的提交记录（可按 `branch` 筛选）；接收者同推送到飞书。结束不晚于开始或没有记录时 400。',
          body: sendTodayLogsBody,
          response: sent,
        },
      },
      async (req) => ok(await messaging.sendTodayLogs(currentUser(req), req.body, shareBaseUrl(req, deps.publicUrl))),
    );
    app.get(
      '/api/deliveries',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '推送记录',
          description:
            '管理员（角色等级 100）。所有消息投递记录，最新的在前，可按应用 `appId` 与状态 `status`（pending/sent/failed）筛选；返回 `data` 与 `total`。',
          querystring: deliveryListQuery,
          response: { 200: pagedEnvelopeSchema(deliveryRow) },
        },
      },
      async (req) => {
        const { rows, total } = await log.list(req.query);
        return ok(rows, { total });
      },
    );
    app.get(
      '/api/deliveries/mine',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '我的推送结果',
          description:
            '登录用户。按 `ids`（逗号分隔）查询自己发起的投递的状态与接收方的应答，用于提示推送是否成功；他人的投递不返回（管理员不限）。',
          querystring: myDeliveriesQuery,
          response: { 200: envelopeSchema(z.array(deliveryRow)) },
        },
      },
      async (req) => ok(await log.mine(currentUser(req), req.query.ids.split(',').map(Number))),
    );
    app.post(
      '/api/delivery/retry',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '重试推送',
          description:
            '管理员（角色等级 100）。重新发送一条失败的投递 `id`。投递不存在 404；只有失败的投递可以重试（否则 409）。',
          body: retryDeliveryBody,
          response: { 200: envelopeSchema(deliveryRow) },
        },
      },
      async (req) => ok(await log.retry(req.body.id)),
    );
  };
}
