import type { SaveUserBody, UserBrief, UserRow } from '@release/contract';
import { api } from './client.ts';

export interface UserListParams {
  pageNo: number;
  pageSize: number;
  keyword: string;
}

export interface UserPage {
  rows: UserRow[];
  total: number;
}

export async function fetchUsers(params: UserListParams, signal?: AbortSignal): Promise<UserPage> {
  const response = await api.get<UserRow[], { total?: number }>(
    '/api/user',
    { pageNo: params.pageNo, pageSize: params.pageSize, keyword: params.keyword || undefined },
    { signal },
  );
  return { rows: response.data, total: response.total ?? response.data.length };
}

export async function saveUser(body: SaveUserBody): Promise<void> {
  await api.post<unknown>('/api/user', body);
}

export async function deleteUser(userId: number): Promise<void> {
  await api.del<unknown>('/api/user', { userId });
}

/** GET /api/users: every user, briefly, for pick lists (admins). */
export async function fetchUserBriefs(signal?: AbortSignal): Promise<UserBrief[]> {
  return (await api.get<UserBrief[]>('/api/users', undefined, { signal })).data;
}
