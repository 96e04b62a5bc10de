import { LarkDocsMessages, type WikiNode, type WikiSpaceList } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { LarkApiError } from '../../integrations/lark/lark-client.ts';
import type { LarkDocsClient } from '../../integrations/lark/lark-docs-client.ts';
import { larkReason } from './lark-doc-follows.service.ts';

/** Lark's refusal as our error: its permission and not-found codes keep their meaning, the rest is a bad gateway. */
function asAppError(error: unknown): never {
  if (!(error instanceof LarkApiError)) throw error;
  if (error.code === 131005) throw AppError.notFound(larkReason(error));
  throw AppError.badRequest(`${LarkDocsMessages.larkFailed}：${larkReason(error)}`);
}

/** The /home/wiki page: the wiki spaces the app's bot belongs to and their node trees, read through the tenant token. */
export function createWikiService(deps: { docs: LarkDocsClient | null; docsBaseUrl: string }) {
  const { docs } = deps;
  return {
    async spaces(): Promise<WikiSpaceList> {
      if (!docs) return { configured: false, items: [] };
      const rows = await docs.listSpaces().catch(asAppError);
      return {
        configured: true,
        items: rows.map((s) => ({
          spaceId: s.space_id,
          name: s.name,
          description: s.description ?? '',
          spaceType: s.space_type ?? '',
          visibility: s.visibility ?? '',
        })),
      };
    },

    async nodes(spaceId: string, parentNodeToken?: string): Promise<WikiNode[]> {
      if (!docs) throw AppError.badRequest(LarkDocsMessages.notConfigured);
      const rows = await docs.listNodes(spaceId, parentNodeToken).catch(asAppError);
      return rows.map((n) => ({
        spaceId: n.space_id,
        nodeToken: n.node_token,
        objToken: n.obj_token,
        objType: n.obj_type,
        parentNodeToken: n.parent_node_token ?? '',
        title: n.title,
        hasChild: Boolean(n.has_child),
        url: `${deps.docsBaseUrl}/wiki/${n.node_token}`,
      }));
    },
  };
}
export type WikiService = ReturnType<typeof createWikiService>;
