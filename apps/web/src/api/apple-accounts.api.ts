import type {
  AddAppleAccountBody,
  AddDeviceToBuildBody,
  AddDeviceToBuildResult,
  AppleAccountRow,
  AppleSyncResult,
  BindAppleAccountBody,
  RegenerateAppleProfileBody,
  RegenerateAppleProfileResult,
  RegisterAppleDevicesResult,
  UpdateAppleAccountBody,
} from '@release/contract';
import { api } from './client.ts';

/** The cache key of /api/apple_accounts (the device list's registrations change with it). */
export const APPLE_ACCOUNTS_KEY = ['apple-accounts'] as const;

/** Calls that reach Apple may take a while (paging through devices, creating a profile). */
const APPLE_TIMEOUT_MS = 60_000;

export async function fetchAppleAccounts(signal?: AbortSignal): Promise<AppleAccountRow[]> {
  return (await api.get<AppleAccountRow[]>('/api/apple_accounts', undefined, { signal })).data;
}

export async function addAppleAccount(body: AddAppleAccountBody): Promise<AppleAccountRow> {
  return (await api.post<AppleAccountRow>('/api/apple_account', body, { timeoutMs: APPLE_TIMEOUT_MS })).data;
}

export async function updateAppleAccount(body: UpdateAppleAccountBody): Promise<AppleAccountRow> {
  return (await api.post<AppleAccountRow>('/api/apple_account/update', body, { timeoutMs: APPLE_TIMEOUT_MS })).data;
}

export async function bindAppleAccount(body: BindAppleAccountBody): Promise<AppleAccountRow> {
  return (await api.post<AppleAccountRow>('/api/apple_account/bind', body)).data;
}

export async function deleteAppleAccount(id: number): Promise<void> {
  await api.del<unknown>('/api/apple_account', { id });
}

export async function syncAppleAccount(id: number): Promise<AppleSyncResult> {
  return (await api.post<AppleSyncResult>('/api/apple_account/sync', { id }, { timeoutMs: APPLE_TIMEOUT_MS })).data;
}

export async function registerAppleDevices(id: number, deviceIds?: number[]): Promise<RegisterAppleDevicesResult> {
  return (
    await api.post<RegisterAppleDevicesResult>(
      '/api/apple_account/register_devices',
      { id, deviceIds },
      { timeoutMs: APPLE_TIMEOUT_MS },
    )
  ).data;
}

export async function regenerateAppleProfile(body: RegenerateAppleProfileBody): Promise<RegenerateAppleProfileResult> {
  return (
    await api.post<RegenerateAppleProfileResult>('/api/apple_account/profile', body, { timeoutMs: APPLE_TIMEOUT_MS })
  ).data;
}

/** One button: register the device at Apple, regenerate the build's profile with it, re-sign the build. */
export async function addDeviceToBuild(body: AddDeviceToBuildBody): Promise<AddDeviceToBuildResult> {
  // Registering, regenerating and re-signing (which itself answers within 60 s) take a while together.
  return (
    await api.post<AddDeviceToBuildResult>('/api/apple_account/add_device_to_build', body, {
      timeoutMs: 3 * APPLE_TIMEOUT_MS,
    })
  ).data;
}
