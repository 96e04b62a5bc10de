import {
  RETENTION_DEFAULT_PATH,
  STORAGE_ORPHANS_CHECK_PATH,
  STORAGE_ORPHANS_REMOVE_PATH,
  STORAGE_USAGE_PATH,
  type OrphanCheck,
  type OrphansRemoved,
  type RetentionRule,
  type StorageUsage,
} from '@release/contract';
import { api } from './client.ts';

/** Reading a large store takes a while: allow more than the default 15 s. */
const ORPHAN_TIMEOUT_MS = 10 * 60_000;

/** 设置 → 存储 (admins): bytes per app and platform, largest builds, weekly growth. */
export async function fetchStorageUsage(signal?: AbortSignal): Promise<StorageUsage> {
  return (await api.get<StorageUsage>(STORAGE_USAGE_PATH, undefined, { signal })).data;
}

/** 检查孤立文件: reads the whole store; removes nothing. */
export async function checkOrphans(): Promise<OrphanCheck> {
  return (await api.post<OrphanCheck>(STORAGE_ORPHANS_CHECK_PATH, {}, { timeoutMs: ORPHAN_TIMEOUT_MS })).data;
}

/** 删除孤立文件: each is checked again before it goes. */
export async function removeOrphans(keys: string[]): Promise<OrphansRemoved> {
  return (await api.post<OrphansRemoved>(STORAGE_ORPHANS_REMOVE_PATH, { keys }, { timeoutMs: ORPHAN_TIMEOUT_MS })).data;
}

/** The retention rule of apps without one of their own (new apps among them). */
export async function fetchDefaultRetention(signal?: AbortSignal): Promise<RetentionRule> {
  return (await api.get<RetentionRule>(RETENTION_DEFAULT_PATH, undefined, { signal })).data;
}

export async function saveDefaultRetention(rule: RetentionRule): Promise<RetentionRule> {
  return (await api.post<RetentionRule>(RETENTION_DEFAULT_PATH, rule)).data;
}
