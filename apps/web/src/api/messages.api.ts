import { NOTIFICATION_LIST_SIZE, type MarkMessageBody, type NotificationRow } from '@release/contract';
import { api } from './client.ts';

export type NotificationStateFilter = NotificationRow['state'] | 'all';

export interface NotificationPage {
  rows: NotificationRow[];
  total: number;
}

/** Notification loading is silent on failure (SPEC §8). */
export async function fetchNotifications(
  state: NotificationStateFilter,
  current: number,
  signal?: AbortSignal,
): Promise<NotificationPage> {
  const response = await api.get<NotificationRow[], { total?: number }>(
    '/api/messages',
    { size: NOTIFICATION_LIST_SIZE, current, state: state === 'all' ? undefined : state },
    { signal, silent: true },
  );
  return { rows: response.data, total: response.total ?? response.data.length };
}

/** Marks one notice ignored, one app's read, or all read (SPEC §4); silent on failure. */
export async function markNotifications(body: MarkMessageBody): Promise<void> {
  await api.post<unknown>('/api/message', body, { silent: true });
}
