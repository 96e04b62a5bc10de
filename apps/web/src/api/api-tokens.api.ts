import type { ApiTokenRow, CreateApiTokenBody, CreatedApiToken } from '@release/contract';
import { api } from './client.ts';

export interface ApiTokenListParams {
  /** Whose tokens; undefined: the caller's own. Only admins may name another user. */
  userId: number | undefined;
  pageNo: number;
  pageSize: number;
}

export interface ApiTokenPage {
  rows: ApiTokenRow[];
  total: number;
}

/** GET /api/api_tokens: newest first, never the tokens themselves. */
export async function fetchApiTokens(params: ApiTokenListParams, signal?: AbortSignal): Promise<ApiTokenPage> {
  const response = await api.get<ApiTokenRow[], { total?: number }>(
    '/api/api_tokens',
    { userId: params.userId, pageNo: params.pageNo, pageSize: params.pageSize },
    { signal },
  );
  return { rows: response.data, total: response.total ?? response.data.length };
}

/** POST /api/api_token: the answer holds the plain token, the only time it is ever shown. */
export async function createApiToken(body: CreateApiTokenBody): Promise<CreatedApiToken> {
  return (await api.post<CreatedApiToken>('/api/api_token', body)).data;
}

/** DELETE /api/api_token?id: revoked at once; the row stays, marked revoked. */
export async function revokeApiToken(id: number): Promise<void> {
  await api.del<unknown>('/api/api_token', { id });
}
