import type {
  DeliveryListQuery,
  DeliveryRow,
  SendMessageBody,
  SendMultiCommitsBody,
  SendResult,
  SendTodayLogsBody,
} from '@release/contract';
import { api } from './client.ts';

export const messagingKeys = {
  all: ['deliveries'] as const,
  list: (query: Partial<DeliveryListQuery>) => ['deliveries', 'list', query] as const,
};

type SendBody = Omit<SendMessageBody, 'userIds'> & { userIds?: number[] };

/** POST /api/send_lark_message or /api/send_wecom_message: answers the queued deliveries. */
export async function sendMessage(service: 'lark' | 'wecom', body: SendBody): Promise<SendResult> {
  return (await api.post<SendResult>(service === 'lark' ? '/api/send_lark_message' : '/api/send_wecom_message', body))
    .data;
}

/** POST /api/workflow/send_multi_commits: chosen items, or a range (all: true). */
export async function sendMultiCommits(
  body: Partial<SendMultiCommitsBody> & Pick<SendMultiCommitsBody, 'appId' | 'workflowId'>,
): Promise<SendResult> {
  return (await api.post<SendResult>('/api/workflow/send_multi_commits', body)).data;
}

/** POST /api/workflow/send_today_logs: the items of [startDate, nextDate). */
export async function sendTodayLogs(
  body: Omit<SendTodayLogsBody, 'startDate' | 'nextDate'> & { startDate: number | string; nextDate: number | string },
): Promise<SendResult> {
  return (await api.post<SendResult>('/api/workflow/send_today_logs', body)).data;
}

/** GET /api/deliveries/mine: the caller's own deliveries (silent: a follow-up, not a user action). */
export async function fetchMyDeliveries(ids: number[]): Promise<DeliveryRow[]> {
  return (await api.get<DeliveryRow[]>('/api/deliveries/mine', { ids: ids.join(',') }, { silent: true })).data;
}

/** GET /api/deliveries (admins): the delivery log, newest first. */
export async function fetchDeliveries(
  query: { appId?: number; status?: DeliveryRow['status']; pageNo: number; pageSize: number },
  signal?: AbortSignal,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const response = await api.get<DeliveryRow[], { total?: number }>('/api/deliveries', query, { signal });
  return { rows: response.data, total: response.total ?? response.data.length };
}

/** POST /api/delivery/retry (admins): a failed delivery is sent again. */
export async function retryDelivery(id: number): Promise<DeliveryRow> {
  return (await api.post<DeliveryRow>('/api/delivery/retry', { id })).data;
}
