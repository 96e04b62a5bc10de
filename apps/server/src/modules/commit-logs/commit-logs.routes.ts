import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bindCommitBody,
  commitLogCalendar,
  commitLogCalendarQuery,
  commitLogDetailQuery,
  commitLogListQuery,
  commitLogPage,
  metadataListBody,
  updateCommitLogBody,
  userCommitLogCalendarQuery,
  userCommitLogListQuery,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import { linksFor, type LinkDeps } from '../../http/links.ts';
import { MAX_PAGE_OFFSET, type CommitLogsService } from './commit-logs.service.ts';

const tags = ['提交记录'];
const detail = z.object({
  id: z.number(),
  commitId: z.string(),
  description: z.string(),
  fileUrls: z.array(z.string()),
  commitMessage: z.string(),
  remark: z.string(),
  commitTime: z.number(),
});

export function commitLogsRoutes(deps: { logs: CommitLogsService } & LinkDeps): FastifyPluginAsyncZod {
  const { logs } = deps;
  return async (app) => {
    app.get(
      '/api/commit_log_list',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '提交记录列表',
          description: `管理员或对这些工作流所属应用有编辑/查看权限的用户（否则 404）。按工作流 \`workflowIds\`（逗号分隔；汇总标签页传其 summaryId）列出提交记录，可按分支 \`branch\`、时间 \`startTime\`/\`endTime\`、提交人 \`remark\` 筛选；\`onlyCliff\` 默认 true，只看未被提交人筛选过滤掉的条目。分页用 \`pageNo\`/\`pageSize\`（页码只能翻到前 ${MAX_PAGE_OFFSET} 条之后的一页，更深 400「页码过深…」）或上一页的 \`nextCursor\`（\`cursor\`，任意深度）；返回 \`list\`、\`hasMore\` 与 \`nextCursor\`。工作流不存在 404。`,
          querystring: commitLogListQuery,
          response: { 200: envelopeSchema(commitLogPage) },
        },
      },
      async (req) => ok(await logs.list(currentUser(req), req.query, linksFor(req, deps))),
    );
    app.get(
      '/api/user_commit_log_list',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '某人的提交记录',
          description: `登录用户。提交人 \`remark\` 在调用者看得到的应用（管理员为全部应用）中的提交记录，筛选与分页同提交记录列表（\`pageNo\` 同样只到前 ${MAX_PAGE_OFFSET} 条）。`,
          querystring: userCommitLogListQuery,
          response: { 200: envelopeSchema(commitLogPage) },
        },
      },
      async (req) => ok(await logs.userList(currentUser(req), req.query, linksFor(req, deps))),
    );
    const calendarText =
      '日历一次取回：`bounds` 为各格子的起点（毫秒时间戳，严格递增，逗号分隔，最多 367 个），最后一个为结束时间（不含），第 i 格统计 [bounds[i], bounds[i+1]) 内的提交；浏览器按本地时区切好日或月传来。返回每格的提交数 `total`（多个工作流收到的同一提交只算一次）与按键的计数 `counts`（安装包条目按包类型 IPA/APK/WEB/MAC，其余按 `countPer`：`app` 应用名或 `workflow` 工作流名，多的在前），以及窗口内出现的应用名 `apps`；`project` 只统计该应用的条目（`apps` 不受影响）。';
    app.get(
      '/api/commit_log_calendar',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '提交记录日历',
          description: `管理员或对这些工作流所属应用有编辑/查看权限的用户（否则 404）。工作流 \`workflowIds\`（逗号分隔；汇总标签页传其 summaryId）的提交记录按日历格子计数，可按分支 \`branch\`、提交人 \`remark\` 筛选，\`onlyCliff\` 同提交记录列表。${calendarText}工作流不存在 404；\`bounds\` 不合法 400。`,
          querystring: commitLogCalendarQuery,
          response: { 200: envelopeSchema(commitLogCalendar) },
        },
      },
      async (req) => ok(await logs.calendar(currentUser(req), req.query)),
    );
    app.get(
      '/api/user_commit_log_calendar',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '某人的提交记录日历',
          description: `登录用户。提交人 \`remark\` 在调用者看得到的应用（管理员为全部应用）中的提交记录按日历格子计数（\`countPer\` 默认 \`app\`），筛选同某人的提交记录。${calendarText}\`bounds\` 不合法 400。`,
          querystring: userCommitLogCalendarQuery,
          response: { 200: envelopeSchema(commitLogCalendar) },
        },
      },
      async (req) => ok(await logs.userCalendar(currentUser(req), req.query)),
    );
    app.post(
      '/api/commit_log/update',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '编辑提交记录说明与截图',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。修改提交记录 `id` 的补充说明 `description` 与截图/视频链接 `fileUrls`（JSON 数组字符串，最多 100 个，空链接会被去掉）。记录不存在 404；`fileUrls` 不是合法 JSON 400。',
          body: updateCommitLogBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await logs.update(currentUser(req), req.body);
        return ok(null);
      },
    );
    app.get(
      '/api/commit_log/detail',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '提交记录详情',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。按工作流 `workflowId` 与提交 ID `commitId`（可用短 ID，不区分大小写）返回说明、截图链接、提交信息与提交人。工作流或记录不存在 404；短 ID 对应多条记录 400。',
          querystring: commitLogDetailQuery,
          response: { 200: envelopeSchema(detail) },
        },
      },
      async (req) =>
        ok(await logs.detail(currentUser(req), req.query.commitId, req.query.workflowId, linksFor(req, deps))),
    );
    app.post(
      '/api/commit_log/metadata_list',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '提交记录元数据',
          description:
            '登录用户。返回 `ids` 中各提交记录的元数据（JSON 字符串），键为记录 ID；没有元数据或调用者看不到的记录不返回。',
          body: metadataListBody,
          response: { 200: envelopeSchema(z.record(z.string(), z.string())) },
        },
      },
      async (req) => ok(await logs.metadataList(currentUser(req), req.body.ids)),
    );
    app.post(
      '/api/app_version/bind_commit',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '关联提交与版本',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。把提交记录 `commitId`（记录 ID）关联到版本 `appVersionIds`（整体替换，传空数组即取消关联）。记录不存在 404；版本不属于同一应用 400「只能绑定同一应用的安装包版本」。',
          body: bindCommitBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await logs.bindCommit(currentUser(req), req.body.commitId, req.body.appVersionIds);
        return ok(null);
      },
    );
    app.post(
      '/api/commit_log/wiki_diff',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '文档修改前后对比',
          description:
            '登录用户。返回 `ids` 中文档编辑类记录的修改前后内容（标题、链接、事件、修改前、修改后）；不是文档修改或调用者看不到的记录跳过。',
          body: metadataListBody,
          response: {
            200: envelopeSchema(
              z.array(
                z.object({
                  id: z.number(),
                  objTitle: z.string(),
                  url: z.string().nullable(),
                  event: z.string(),
                  beforeContent: z.string(),
                  afterContent: z.string(),
                }),
              ),
            ),
          },
        },
      },
      async (req) => ok(await logs.wikiDiff(currentUser(req), req.body.ids)),
    );
    app.get(
      '/api/workflow/users',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '提交人名单',
          description: '登录用户。调用者看得到的应用（管理员为全部应用）中出现过的提交人名字。',
          response: { 200: envelopeSchema(z.array(z.string())) },
        },
      },
      async (req) => ok(await logs.committers(currentUser(req))),
    );
  };
}
