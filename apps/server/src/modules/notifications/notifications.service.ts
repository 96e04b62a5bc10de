import type { MarkMessageBody, NotificationRow } from '@release/contract';
import type { NotificationsRepository } from './notifications.repository.ts';

export function createNotificationsService(deps: { notifications: NotificationsRepository }) {
  const { notifications } = deps;
  return {
    async list(userId: number, query: { current: number; size: number; state?: NotificationRow['state'] }) {
      const { rows, total } = await notifications.list(userId, {
        state: query.state,
        offset: (query.current - 1) * query.size,
        limit: query.size,
      });
      const items: NotificationRow[] = rows;
      return { rows: items, total };
    },
    /** SPEC §4: one notice ignored, one app's read, or all read. */
    async mark(userId: number, body: MarkMessageBody) {
      await notifications.setState(userId, { id: body.id, appId: body.appId }, body.state);
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
