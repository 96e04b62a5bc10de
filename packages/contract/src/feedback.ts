import { z } from 'zod';
import { intFromQuery } from './common.ts';

export * from './feedback-form.ts';

/** An app's feedback setting: whether testers may send feedback, and to whom a feedback bug is assigned. */
export const feedbackSettings = z.object({
  appId: z.number(),
  enabled: z.boolean(),
  assigneeIds: z.array(z.number()),
});
export type FeedbackSettings = z.infer<typeof feedbackSettings>;
export const feedbackSettingsQuery = z.object({ appId: intFromQuery.min(1) });
export const saveFeedbackSettingsBody = z.object({
  appId: z.number().int().min(1),
  enabled: z.boolean(),
  assigneeIds: z.array(z.number().int().min(1)).max(20),
});

/** What the install page hears back: the bug it became. */
export const feedbackSent = z.object({ guid: z.string(), message: z.string() });
export type FeedbackSent = z.infer<typeof feedbackSent>;
