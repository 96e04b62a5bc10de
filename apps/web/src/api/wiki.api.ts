import type { LarkDocFollow, WikiNode, WikiSpaceList } from '@release/contract';
import { api } from './client.ts';

/** Query keys of the wiki page and of the documents a wiki workflow follows. */
export const wikiKeys = {
  spaces: ['wiki', 'spaces'] as const,
  follows: (workflowId: number) => ['wiki', 'follows', workflowId] as const,
};

/** GET /api/wiki/space/list: the spaces the Lark app belongs to; configured=false when Lark is not set up. */
export async function fetchWikiSpaces(signal?: AbortSignal): Promise<WikiSpaceList> {
  return (await api.get<WikiSpaceList>('/api/wiki/space/list', undefined, { signal })).data;
}

/** GET /api/wiki/node/list: one level of a space's tree (its root without a parent). */
export async function fetchWikiNodes(spaceId: string, parentNodeToken?: string): Promise<WikiNode[]> {
  return (await api.get<WikiNode[]>('/api/wiki/node/list', { spaceId, parentNodeToken })).data;
}

export async function fetchLarkDocFollows(workflowId: number, signal?: AbortSignal): Promise<LarkDocFollow[]> {
  return (await api.get<LarkDocFollow[]>('/api/workflow/lark_docs', { workflowId }, { signal })).data;
}

/** POST /api/workflow/lark_docs: the whole list; new documents are subscribed at Lark. */
export async function saveLarkDocFollows(workflowId: number, sources: string[]): Promise<LarkDocFollow[]> {
  return (await api.post<LarkDocFollow[]>('/api/workflow/lark_docs', { workflowId, sources })).data;
}
