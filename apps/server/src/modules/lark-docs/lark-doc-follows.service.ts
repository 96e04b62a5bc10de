import { LarkDocsMessages, type LarkDocFollow } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { LarkApiError } from '../../integrations/lark/lark-client.ts';
import type { DriveFileType, LarkDocsClient } from '../../integrations/lark/lark-docs-client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';
import type { WorkflowsDirectory } from '../workflows/workflows-directory.ts';
import { docPath } from './lark-doc-changes.ts';
import type { LarkDocsRepository } from './lark-docs.repository.ts';

/** URL path segments of the Lark web and the drive type they hold (`…/wiki/<node>` is resolved through the wiki). */
const PATH_TYPES: Record<string, DriveFileType | 'wiki'> = {
  wiki: 'wiki',
  docx: 'docx',
  docs: 'doc',
  doc: 'doc',
  sheets: 'sheet',
  base: 'bitable',
  file: 'file',
  slides: 'slides',
  folder: 'folder',
};
const SUBSCRIBABLE = new Set<string>(['doc', 'docx', 'sheet', 'bitable', 'file', 'folder', 'slides']);
const TOKEN = /^[A-Za-z0-9_-]{8,64}$/;

export interface ParsedSource {
  token: string;
  type: DriveFileType | 'wiki';
  url: string | null;
}

/** A document, wiki or folder link of the Lark web, or a bare wiki node token. */
export function parseDocSource(source: string): ParsedSource | null {
  const text = source.trim();
  if (TOKEN.test(text)) return { token: text, type: 'wiki', url: null };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const parts = url.pathname.split('/').filter(Boolean);
  for (let i = parts.length - 2; i >= 0; i -= 1) {
    const type = PATH_TYPES[parts[i] ?? ''];
    const token = parts[i + 1] ?? '';
    if (type && TOKEN.test(token)) return { token, type, url: `${url.origin}${url.pathname}` };
  }
  return null;
}

export function larkReason(error: unknown): string {
  if (error instanceof LarkApiError)
    return `${LarkDocsMessages.larkCodes[error.code] ?? error.message}（飞书错误码 ${error.code}）`;
  return error instanceof Error ? error.message : String(error);
}

function present(row: Awaited<ReturnType<LarkDocsRepository['followsOfWorkflow']>>[number]): LarkDocFollow {
  return {
    id: row.id,
    source: row.source,
    title: row.title,
    objType: row.obj_type,
    spaceName: row.space_name,
    url: row.url,
    subscribed: row.subscribed === 1,
  };
}

/** Which Lark documents a wiki workflow follows; following one subscribes the app to its drive events. */
export function createLarkDocFollowsService(deps: {
  repo: LarkDocsRepository;
  workflows: WorkflowsDirectory;
  policy: AppsPolicy;
  docs: LarkDocsClient | null;
  docsBaseUrl: string;
  clock: Clock;
}) {
  const { repo, docs, clock } = deps;

  async function wikiWorkflow(user: AuthUser, workflowId: number, edit: boolean): Promise<WorkflowRecord> {
    const workflow = await deps.workflows.findById(workflowId);
    if (!workflow) throw AppError.notFound('工作流不存在');
    if (edit) await deps.policy.assertCanEdit(user, workflow.app_id);
    else await deps.policy.assertCanView(user, workflow.app_id);
    if (workflow.manage_type !== 'wiki' && workflow.repo_type !== 'wiki')
      throw AppError.badRequest(LarkDocsMessages.notWikiWorkflow);
    return workflow;
  }

  async function spaceNames(): Promise<Map<string, string>> {
    if (!docs) return new Map();
    return new Map((await docs.listSpaces()).map((s) => [s.space_id, s.name]));
  }

  /** Resolves a source to its drive token, subscribes, and reads the text the next edit is compared with. */
  async function follow(
    workflow: WorkflowRecord,
    source: string,
    parsed: ParsedSource,
    spaces: () => Promise<Map<string, string>>,
  ) {
    if (!docs) throw AppError.badRequest(LarkDocsMessages.notConfigured);
    let objToken = parsed.token;
    let objType: string = parsed.type;
    let nodeToken: string | null = null;
    let title = parsed.token;
    let spaceName: string | null = null;
    if (parsed.type === 'wiki') {
      const node = await docs.getNode(parsed.token);
      ({ obj_token: objToken, obj_type: objType, node_token: nodeToken, title } = node);
      spaceName = (await spaces()).get(node.space_id) ?? null;
    } else if (parsed.type !== 'folder') {
      // A document stored in a wiki has a node there, with its title and space; others keep the token as title.
      const node = await docs.getNode(parsed.token, parsed.type).catch(() => null);
      if (node) {
        ({ node_token: nodeToken, title } = node);
        spaceName = (await spaces()).get(node.space_id) ?? null;
      }
    }
    if (!SUBSCRIBABLE.has(objType)) throw AppError.badRequest(LarkDocsMessages.unsupportedType);
    await docs.subscribe(objToken, objType as DriveFileType);
    const content = objType === 'docx' ? await docs.docxText(objToken) : null;
    const url =
      parsed.url ??
      (nodeToken ? `${deps.docsBaseUrl}/wiki/${nodeToken}` : `${deps.docsBaseUrl}/${docPath(objType)}/${objToken}`);
    const now = clock.now();
    await repo.insertFollow({
      workflow_id: workflow.id,
      source,
      obj_token: objToken,
      obj_type: objType,
      node_token: nodeToken,
      title: title.slice(0, 500),
      space_name: spaceName,
      url,
      content,
      subscribed: 1,
      last_error: null,
      create_time: now,
      update_time: now,
    });
  }

  return {
    async list(user: AuthUser, workflowId: number): Promise<LarkDocFollow[]> {
      await wikiWorkflow(user, workflowId, false);
      return (await repo.followsOfWorkflow(workflowId)).map(present);
    },

    /** Replaces the list: new sources are followed (and subscribed), dropped ones unsubscribed when nobody else follows them. */
    async replace(user: AuthUser, workflowId: number, sources: string[]): Promise<LarkDocFollow[]> {
      const workflow = await wikiWorkflow(user, workflowId, true);
      const wanted = [...new Set(sources.map((s) => s.trim()).filter(Boolean))];
      const parsed = wanted.map((source) => ({ source, parsed: parseDocSource(source) }));
      const unreadable = parsed.filter((p) => !p.parsed).map((p) => p.source);
      if (unreadable.length) throw AppError.badRequest(`${LarkDocsMessages.badSource}：${unreadable.join('，')}`);
      const current = await repo.followsOfWorkflow(workflowId);
      const keep = new Set(wanted);
      for (const row of current.filter((r) => !keep.has(r.source))) {
        await repo.deleteFollow(row.id);
        if (docs && (await repo.countFollowers(row.obj_token)) === 0) {
          await docs.unsubscribe(row.obj_token, row.obj_type as DriveFileType).catch(() => undefined);
        }
      }
      const known = new Set(current.map((r) => r.source));
      let names: Promise<Map<string, string>> | null = null;
      const spaces = () => (names ??= spaceNames());
      const failures: string[] = [];
      for (const { source, parsed: p } of parsed) {
        if (known.has(source) || !p) continue;
        try {
          await follow(workflow, source, p, spaces);
        } catch (error) {
          failures.push(`${source}：${error instanceof AppError ? error.message : larkReason(error)}`);
        }
      }
      if (failures.length) throw AppError.badRequest(`以下文档未能关注（其余已保存）：${failures.join('；')}`);
      return (await repo.followsOfWorkflow(workflowId)).map(present);
    },
  };
}
export type LarkDocFollowsService = ReturnType<typeof createLarkDocFollowsService>;
