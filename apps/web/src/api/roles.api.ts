import type { RoleRow, SaveRoleBody } from '@release/contract';
import { api } from './client.ts';

export interface RolePage {
  rows: RoleRow[];
  total: number;
}

export async function fetchRoles(pageNo: number, pageSize: number, signal?: AbortSignal): Promise<RolePage> {
  const response = await api.get<RoleRow[], { total?: number }>('/api/roles', { pageNo, pageSize }, { signal });
  return { rows: response.data, total: response.total ?? response.data.length };
}

export async function saveRole(body: SaveRoleBody): Promise<void> {
  await api.post<unknown>('/api/role', body);
}

export async function deleteRole(roleId: number): Promise<void> {
  await api.del<unknown>('/api/role', { roleId });
}
