import { z } from 'zod';
import { intFromQuery } from './common.ts';

export const notificationStates = ['NOT_READ', 'READ', 'IGNORE'] as const;
export const notificationState = z.enum(notificationStates);

export const messageInfo = z.object({
  username: z.string(),
  appId: z.number(),
  appName: z.string(),
  description: z.string(),
});
export type MessageInfo = z.infer<typeof messageInfo>;
export const notificationRow = z.object({
  id: z.number(),
  appId: z.number(),
  createTime: z.number(),
  state: notificationState,
  messageInfo,
});
export type NotificationRow = z.infer<typeof notificationRow>;

export const messageListQuery = z.object({
  current: intFromQuery.min(1).default(1),
  size: intFromQuery.min(1).max(100).default(100),
  state: notificationState.optional(),
});
/**
 * SPEC §4: id + IGNORE ignores one; appId + READ reads one app's; READ alone reads all.
 * IGNORE needs an id: ignoring cannot be undone, so one stray call must not hide every notice.
 */
export const markMessageBody = z
  .object({
    id: intFromQuery.min(1).optional(),
    appId: intFromQuery.min(1).optional(),
    state: z.enum(['READ', 'IGNORE']),
  })
  .refine((body) => body.state !== 'IGNORE' || body.id !== undefined, {
    path: ['id'],
    message: '忽略通知时必须指定通知id',
  });
export type MarkMessageBody = z.infer<typeof markMessageBody>;
