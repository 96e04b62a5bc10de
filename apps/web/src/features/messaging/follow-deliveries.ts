import type { SendResult } from '@release/contract';
import { fetchMyDeliveries } from '../../api/messaging.api.ts';
import { toast } from '../../app/feedback.ts';
import { messagingText } from './messaging.strings.ts';

const POLL_MS = 1000;
const FOLLOW_MS = 20_000;

/**
 * A push is queued at once and sent by a job: follow its deliveries for a little while, then say what the
 * receiver answered — the SPEC §8 success toast, or the receiver's reason when it refused.
 */
export async function followDeliveries(result: SendResult): Promise<'sent' | 'failed' | 'pending'> {
  if (result.skipped.length) toast.warning(messagingText.skipped(result.skipped));
  let rows = result.deliveries;
  const until = Date.now() + FOLLOW_MS;
  while (rows.some((d) => d.status === 'pending') && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    rows = await fetchMyDeliveries(result.deliveryIds).catch(() => rows);
  }
  const failed = rows.find((d) => d.status === 'failed');
  if (failed) {
    toast.error(messagingText.failed(failed.receiverMessage ?? String(failed.receiverCode ?? '')));
    return 'failed';
  }
  if (rows.some((d) => d.status === 'pending')) {
    toast.info(messagingText.queued);
    return 'pending';
  }
  toast.success(messagingText.pushed);
  return 'sent';
}
