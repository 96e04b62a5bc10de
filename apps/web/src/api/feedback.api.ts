import type { FeedbackSettings } from '@release/contract';
import { api } from './client.ts';

/** GET /api/app/feedback_settings: whether the app takes tester feedback, and who its bugs go to (members). */
export async function fetchFeedbackSettings(appId: number, signal?: AbortSignal): Promise<FeedbackSettings> {
  return (await api.get<FeedbackSettings>('/api/app/feedback_settings', { appId }, { signal, silent: true })).data;
}

/** POST /api/app/feedback_settings (editors and admins). */
export async function saveFeedbackSettings(body: FeedbackSettings): Promise<FeedbackSettings> {
  return (await api.post<FeedbackSettings>('/api/app/feedback_settings', body)).data;
}
