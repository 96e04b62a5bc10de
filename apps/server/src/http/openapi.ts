import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document's Chinese front matter (served at /api/docs): what every call shares, and the tags
 * the routes are grouped by. Each route writes its own Chinese `summary` and `description` inline;
 * test/openapi-docs.test.ts fails on an operation without them or with a tag not declared here.
 */

export const openApiInfo = {
  title: '发布系统 API',
  version: '0.1.0',
  description: [
    '发布系统（内部应用分发与构建追踪）的接口文档。',
    '',
    '**应答信封**：除文件下载、跳转与回调外，每个接口都以 HTTP JSON 应答 `{code, msg, data}`；`code` 为 200 表示成功，其他值时 `msg` 是可直接展示的中文原因。',
    '常见的 `code`：400 参数错误（`msg` 指明字段）、401 未登录或登录已过期、10028 没有权限（HTTP 403）、404 不存在、409 冲突、413 请求体过大（JSON 请求体上限 1 MB）、429 请求过于频繁、503 数据库暂时不可用、507 服务器存储空间不足。',
    '',
    '**身份**：登录后在请求头 `token` 中带上登录令牌，或用 `Authorization: Bearer <令牌>`；CI 与命令行工具使用在「API 令牌」中创建的 `rst_…` 令牌，权限与创建它的用户相同。',
    '',
    '**权限**：角色等级 100 为管理员，可调用所有接口；其他用户按应用授权：「编辑」用户可上传安装包、编辑该应用的工作流与提交记录，「查看」用户只能看到并下载该应用的安装包。每个接口的说明都写明了谁可以调用。',
  ].join('\n'),
};

/** Every tag a route may use, with what it groups; the order is the order of the document. */
export const openApiTags = [
  { name: '登录', description: '账号密码与手机验证码登录、退出、找回密码，以及当前用户的信息。' },
  { name: '第三方登录', description: '飞书与企业微信的扫码/授权登录，以及账号绑定的第三方身份。' },
  { name: '用户', description: '用户的增删改、角色分配与用户名单（管理员）。' },
  { name: '角色', description: '角色与角色等级；等级 100 为管理员（管理员）。' },
  { name: '分类', description: '应用分类；删除分类后，其中的应用变为未分类。' },
  { name: '应用', description: '应用列表、应用设置、收藏与订阅、应用的编辑/查看授权。' },
  { name: '通知', description: '站内消息：列表、标为已读或忽略。' },
  { name: '系统设置', description: '管理员的系统设置与允许访问的代码仓库主机。' },
  { name: '系统', description: '服务状态与对外地址（PUBLIC_URL）检查。' },
  { name: '文件上传', description: '图标、截图与视频等小文件的上传和读取。' },
  { name: '安装包上传', description: '安装包的分片直传、登记为版本，以及 CI 使用的一次请求上传。' },
  { name: '安装页', description: '安装页（下载地址）的数据、安装密码与免密链接、iOS 安装清单。' },
  {
    name: '测试反馈',
    description: '测试者从安装页或控制台对所用版本提交反馈（文字、截图或录屏），成为该应用的缺陷；应用的反馈设置。',
  },
  { name: '版本', description: '应用的版本（安装包）列表、说明编辑与查询。' },
  { name: '工作流', description: '应用下跟踪 git/svn 仓库、飞书文档等来源的工作流，以及仓库同步、Webhook 与推送。' },
  { name: '提交记录', description: '工作流产生的提交记录：列表、截图与说明、与版本关联。' },
  { name: 'API 令牌', description: '给 CI 与命令行工具使用的个人 API 令牌。' },
  { name: '证书', description: 'iOS 签名证书（.p12）与描述文件（.mobileprovision）（管理员）。' },
  { name: '设备', description: 'iOS 设备 UDID 的登记、审核、导入与导出（管理员）。' },
  { name: '重签名', description: '用已上传的证书重新签名 ipa 安装包。' },
  {
    name: '苹果开发者账号',
    description: 'App Store Connect API 密钥：同步设备与证书、注册设备、重新生成描述文件（管理员）。',
  },
  { name: '设备注册', description: '通过 .mobileconfig 描述文件读取 iPhone 的 UDID 并登记。' },
  { name: '消息推送', description: '把提交记录或安装包推送到飞书/企业微信，以及推送记录与重试。' },
  { name: '飞书事件', description: '飞书开放平台的事件订阅回调。' },
  { name: '知识库', description: '飞书知识库的空间与节点浏览。' },
  { name: '任务', description: '应用的任务与缺陷、评论，以及与飞书任务/多维表格的同步。' },
  { name: '存储', description: '本地存储时的分片上传与文件下载（签名链接），以及存储用量与孤立文件检查（管理员）。' },
];

/** Either header carries a session or an API token; `security` is the default of every operation. */
export const openApiSecurity = {
  components: {
    securitySchemes: {
      token: {
        type: 'apiKey' as const,
        in: 'header' as const,
        name: 'token',
        description: '登录令牌（POST /api/user/login 返回的 `token`）或 API 令牌（`rst_…`），放在请求头 `token` 中。',
      },
      bearer: {
        type: 'http' as const,
        scheme: 'bearer',
        description: '同一令牌放在 `Authorization: Bearer <令牌>` 中，CI 与命令行工具常用。',
      },
    },
  },
  security: [{ token: [] }, { bearer: [] }] as Array<Record<string, string[]>>,
};

/**
 * The zod schemas as JSON Schema. An operation open to anyone (`access: 'public'`) takes the token optionally (`{}`
 * first): it still reads it when sent, e.g. logout ends that session and a member skips the install password.
 */
export const openApiTransform: SwaggerTransform = (input) => {
  const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const access = (input.route.config as { access?: string } | undefined)?.access;
  return access === 'public' ? { ...out, schema: { ...out.schema, security: [{}, ...openApiSecurity.security] } } : out;
};
