import type { RepoHostRules, SystemSettings } from '@release/contract';
import { api } from './client.ts';

export async function fetchSystemSettings(signal?: AbortSignal): Promise<SystemSettings> {
  return (await api.get<SystemSettings>('/api/system_setting', undefined, { signal })).data;
}

export async function saveSystemSettings(body: SystemSettings): Promise<void> {
  await api.post<unknown>('/api/system_setting', body);
}

/** 设置 → 系统 → 仓库主机 (admins). */
export async function fetchRepoHosts(signal?: AbortSignal): Promise<RepoHostRules> {
  return (await api.get<RepoHostRules>('/api/system_setting/repo_hosts', undefined, { signal })).data;
}

export async function saveRepoHosts(body: RepoHostRules): Promise<RepoHostRules> {
  return (await api.post<RepoHostRules>('/api/system_setting/repo_hosts', body)).data;
}
