import type { SystemSettings } from '@release/contract';
import { api } from './client.ts';

export async function fetchSystemSettings(signal?: AbortSignal): Promise<SystemSettings> {
  return (await api.get<SystemSettings>('/api/system_setting', undefined, { signal })).data;
}

export async function saveSystemSettings(body: SystemSettings): Promise<void> {
  await api.post<unknown>('/api/system_setting', body);
}
