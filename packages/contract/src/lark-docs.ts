import { z } from 'zod';
import { intFromQuery } from './common.ts';

/** Chinese messages of the wiki page and of documents followed by wiki workflows. */
export const LarkDocsMessages = {
  notConfigured: '未配置飞书应用：请管理员设置 LARK_APP_ID 与 LARK_APP_SECRET',
  eventsNotConfigured: '未配置飞书事件订阅：请管理员设置 LARK_VERIFICATION_TOKEN（以及加密时的 LARK_ENCRYPT_KEY）',
  notWikiWorkflow: '只有类型为知识库的自定义工作流可以关注飞书文档',
  badSource: '无法识别的飞书文档地址，请粘贴文档、知识库或文件夹的链接',
  unsupportedType: '不支持关注这种飞书文档',
  tooMany: '一个工作流最多关注 200 个文档',
  larkFailed: '飞书接口调用失败',
  /** What Lark's refusals mean for someone following a document. */
  larkCodes: {
    1069603: '飞书应用没有该文档的管理权限，请把应用添加为文档协作者（可管理）',
    1069604: '文档不存在',
    131005: '知识库或节点不存在',
    131006: '飞书应用不是该知识空间的成员，请在知识空间设置中添加应用',
    1770002: '文档不存在',
    1770032: '飞书应用没有该文档的阅读权限',
    99991672: '飞书应用未开通所需权限（知识库、云文档）',
  } as Record<number, string>,
} as const;

/** GET /api/wiki/space/list: the team's wiki spaces the app's bot belongs to. */
export const wikiSpace = z.object({
  spaceId: z.string(),
  name: z.string(),
  description: z.string(),
  spaceType: z.string(),
  visibility: z.string(),
});
export type WikiSpace = z.infer<typeof wikiSpace>;
export const wikiSpaceList = z.object({ configured: z.boolean(), items: z.array(wikiSpace) });
export type WikiSpaceList = z.infer<typeof wikiSpaceList>;

/** GET /api/wiki/node/list: one level of a space's node tree (the root without parentNodeToken). */
export const wikiNodeListQuery = z.object({
  spaceId: z.string().trim().min(1).max(64),
  parentNodeToken: z.string().trim().max(64).optional(),
});
export const wikiNode = z.object({
  spaceId: z.string(),
  nodeToken: z.string(),
  objToken: z.string(),
  objType: z.string(),
  parentNodeToken: z.string(),
  title: z.string(),
  hasChild: z.boolean(),
  /** Opens the document in Lark. */
  url: z.string(),
});
export type WikiNode = z.infer<typeof wikiNode>;

/** The Lark documents (or folders) a wiki workflow follows; their changes become the workflow's items. */
export const larkDocFollow = z.object({
  id: z.number(),
  source: z.string(),
  title: z.string(),
  objType: z.string(),
  spaceName: z.string().nullable(),
  url: z.string().nullable(),
  subscribed: z.boolean(),
});
export type LarkDocFollow = z.infer<typeof larkDocFollow>;

export const larkDocFollowsQuery = z.object({ workflowId: intFromQuery });
/** POST /api/workflow/lark_docs: the whole list (links or tokens, one per entry); new ones are subscribed. */
export const setLarkDocFollowsBody = z.object({
  workflowId: z.number().int().positive(),
  sources: z.array(z.string().trim().min(1).max(2048)).max(200),
});
export type SetLarkDocFollowsBody = z.infer<typeof setLarkDocFollowsBody>;
