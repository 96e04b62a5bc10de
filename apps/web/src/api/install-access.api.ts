import type { InstallAccess, UpdateInstallAccessBody } from '@release/contract';
import { api } from './client.ts';

/** GET /api/app/install_access: the install password and the password-free link (editors and admins). */
export async function fetchInstallAccess(appId: number, signal?: AbortSignal): Promise<InstallAccess> {
  return (await api.get<InstallAccess>('/api/app/install_access', { appId }, { signal })).data;
}

/** POST /api/app/install_access: a new install password and/or the password-free link on or off. */
export async function updateInstallAccess(body: UpdateInstallAccessBody): Promise<InstallAccess> {
  return (await api.post<InstallAccess>('/api/app/install_access', body)).data;
}
