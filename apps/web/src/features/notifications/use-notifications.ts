import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MarkMessageBody } from '@release/contract';
import { fetchNotifications, markNotifications, type NotificationStateFilter } from '../../api/messages.api.ts';
import { queryKeys } from '../../api/query-keys.ts';

const UNREAD_POLL_MS = 60_000;

export function useNotificationList(state: NotificationStateFilter, current = 1, poll = false) {
  return useQuery({
    queryKey: queryKeys.notificationList(state, current),
    queryFn: ({ signal }) => fetchNotifications(state, current, signal),
    refetchInterval: poll ? UNREAD_POLL_MS : false,
  });
}

/** The bell's list: GET /api/messages?size=100&current=1&state=NOT_READ, refreshed every minute. */
export function useUnreadNotifications() {
  return useNotificationList('NOT_READ', 1, true);
}

/**
 * Marks notices (SPEC §4): then the notice lists reload; reading all, or one app's,
 * also refreshes the app list, whose unread counts change.
 */
export function useMarkNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkMessageBody) => markNotifications(body),
    onSettled: async (_data, _error, body) => {
      const refreshes = [queryClient.invalidateQueries({ queryKey: queryKeys.notifications })];
      if (body.id === undefined) refreshes.push(queryClient.invalidateQueries({ queryKey: queryKeys.apps }));
      await Promise.all(refreshes);
    },
  });
}
