import type { FakeClock } from '../shared/clock.ts';
import { randomChars, uuid } from '../shared/ids.ts';
import { encryptEvent, signEvent } from './lark-crypto.ts';
import type { EventDelivery, LarkApp, LarkState } from './lark-state.ts';

/** Contract §F: retried after 15 s, 5 min, 1 h and 6 h when no HTTP 200 came within 3 s. */
export const RETRY_DELAYS_MS = [15_000, 300_000, 3_600_000, 21_600_000] as const;
export const DELIVERY_TIMEOUT_MS = 3000;
export const VERIFY_TIMEOUT_MS = 1000;

export interface PushEventInput {
  eventType: string;
  event: Record<string, unknown>;
  /** Target URL (default: the app's eventUrl). Must be loopback. */
  url?: string;
  /** Which app sends it (default: the fake's default app). */
  appId?: string;
  eventId?: string;
  /** Encrypt and sign (default: whenever the app has an encryptKey). */
  encrypt?: boolean;
  /** Schedule the retries on failure (default true). */
  retry?: boolean;
}

export interface UrlVerificationResult {
  ok: boolean;
  status: number | null;
  challenge: string;
  responseBody?: string;
  error?: string;
}

export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host))
    throw new Error(`the fake only delivers to loopback addresses, not ${host}`);
}

export class EventPusher {
  private nextId = 1;

  constructor(
    private readonly state: LarkState,
    private readonly clock: FakeClock,
    private readonly defaultAppId: () => string,
  ) {}

  /** Builds the schema 2.0 envelope, delivers it once and schedules retries; resolves after the first attempt. */
  async push(input: PushEventInput): Promise<EventDelivery> {
    const app = this.appOf(input.appId);
    const url = input.url ?? app.eventUrl;
    if (!url) throw new Error(`app ${app.appId} has no eventUrl; pass url`);
    assertLoopback(url);
    const envelope = {
      schema: '2.0',
      header: {
        event_id: input.eventId ?? uuid().replace(/-/g, ''),
        event_type: input.eventType,
        create_time: String(this.clock.now()),
        token: app.verificationToken,
        app_id: app.appId,
        tenant_key: app.tenantKey,
      },
      event: input.event,
    };
    const delivery: EventDelivery = {
      id: this.nextId++,
      url,
      eventType: input.eventType,
      eventId: envelope.header.event_id,
      envelope,
      encrypted: Boolean(app.encryptKey) && input.encrypt !== false,
      attempts: [],
      status: 'retrying',
    };
    this.state.deliveries.push(delivery);
    await this.attempt(delivery, app, input.retry !== false);
    return delivery;
  }

  /** Sends the url_verification challenge (encrypted when the app has a key) and checks the echo. */
  async verifyUrl(url: string, appId?: string): Promise<UrlVerificationResult> {
    assertLoopback(url);
    const app = this.appOf(appId);
    const challenge = uuid();
    const plaintext = { challenge, token: app.verificationToken, type: 'url_verification' };
    const request = this.buildRequest(app, plaintext, Boolean(app.encryptKey));
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
      });
      const text = await response.text();
      let echoed: unknown;
      try {
        echoed = (JSON.parse(text) as { challenge?: unknown }).challenge;
      } catch {
        echoed = undefined;
      }
      return {
        ok: response.status === 200 && echoed === challenge,
        status: response.status,
        challenge,
        responseBody: text,
      };
    } catch (error) {
      return { ok: false, status: null, challenge, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The body and headers the platform sends for a plaintext event (encrypted + signed when asked). */
  buildRequest(app: LarkApp, plaintext: unknown, encrypt: boolean): { body: string; headers: Record<string, string> } {
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (!encrypt || !app.encryptKey) return { body: JSON.stringify(plaintext), headers };
    // Compact JSON.stringify output, so the SDK's check over JSON.stringify(parsed) agrees with ours.
    const body = JSON.stringify({ encrypt: encryptEvent(app.encryptKey, JSON.stringify(plaintext)) });
    const timestamp = String(this.clock.nowSeconds());
    const nonce = randomChars(16);
    headers['x-lark-request-timestamp'] = timestamp;
    headers['x-lark-request-nonce'] = nonce;
    headers['x-lark-signature'] = signEvent(timestamp, nonce, app.encryptKey, body);
    return { body, headers };
  }

  private appOf(appId?: string): LarkApp {
    const app = this.state.apps.get(appId ?? this.defaultAppId());
    if (!app) throw new Error(`unknown app ${appId ?? ''}`);
    return app;
  }

  private async attempt(delivery: EventDelivery, app: LarkApp, retry: boolean): Promise<void> {
    const request = this.buildRequest(app, delivery.envelope, delivery.encrypted);
    const at = this.clock.now();
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      const text = await response.text();
      delivery.attempts.push({ at, status: response.status, responseBody: text.slice(0, 2000) });
      if (response.status === 200) {
        delivery.status = 'delivered';
        delivery.nextRetryAt = undefined;
        return;
      }
    } catch (error) {
      delivery.attempts.push({ at, status: null, error: error instanceof Error ? error.message : String(error) });
    }
    const delay = RETRY_DELAYS_MS[delivery.attempts.length - 1];
    if (!retry || delay === undefined) {
      delivery.status = 'failed';
      delivery.nextRetryAt = undefined;
      return;
    }
    delivery.status = 'retrying';
    delivery.nextRetryAt = this.clock.now() + delay;
    this.clock.schedule(delay, () => this.attempt(delivery, app, retry));
  }
}
