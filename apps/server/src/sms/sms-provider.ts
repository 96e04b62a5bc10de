import type { Logger } from '../lib/logger.ts';

/** Sends one text message. `isReal` tells whether codes actually reach a phone. */
export interface SmsProvider {
  readonly isReal: boolean;
  send(phone: string, text: string): Promise<void>;
}

/** Default provider: writes the message to the server log (for setups without an SMS gateway). */
export function createLogSmsProvider(log: Logger): SmsProvider {
  return {
    isReal: false,
    async send(phone, text) {
      log.info({ phone }, `SMS to ${phone}: ${text}`);
    },
  };
}

/** Posts `{ phone, text }` as JSON to an SMS gateway URL configured by the operator. */
export function createWebhookSmsProvider(url: string, fetchImpl: typeof fetch = fetch): SmsProvider {
  return {
    isReal: true,
    async send(phone, text) {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone, text }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`SMS gateway answered HTTP ${response.status}`);
    },
  };
}
