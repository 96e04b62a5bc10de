import { LIVE_EVENTS_PATH } from '@release/contract';

export interface LiveClient {
  status: number;
  headers: Headers;
  /** The events heard so far: name and parsed data. */
  events: Array<{ event: string; data: unknown }>;
  /** The whole text heard (heartbeat comments included). */
  text(): string;
  /** Resolves with the first event of that name (and app) heard, now or later. */
  next(event: string, appId?: number): Promise<{ event: string; data: unknown }>;
  close(): void;
}

/** Connects to /api/events as the browser does (fetch with the session token) and reads the stream as it comes. */
export async function connectLive(baseUrl: string, token: string | null): Promise<LiveClient> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${LIVE_EVENTS_PATH}`, {
    headers: token ? { token } : {},
    signal: controller.signal,
  });
  const events: LiveClient['events'] = [];
  const waiters: Array<{ match: (e: LiveClient['events'][number]) => boolean; resolve: (e: never) => void }> = [];
  let raw = '';
  let buffer = '';
  const matches = (event: string, appId?: number) => (e: LiveClient['events'][number]) =>
    e.event === event && (appId === undefined || (e.data as { appId?: number }).appId === appId);
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          const text = decoder.decode(chunk, { stream: true });
          raw += text;
          buffer += text;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const name = /^event: (.*)$/m.exec(frame)?.[1];
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (name && data !== undefined) {
              const e = { event: name, data: JSON.parse(data) as unknown };
              events.push(e);
              // Waiters this event answers are resolved; the others wait on.
              for (const w of waiters.splice(0)) {
                if (w.match(e)) w.resolve(e as never);
                else waiters.push(w);
              }
            }
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // Closed by the test or the server.
      }
    })();
  } else raw = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    events,
    text: () => raw,
    next(event, appId) {
      const found = events.find(matches(event, appId));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match: matches(event, appId), resolve: resolve as never }));
    },
    close: () => controller.abort(),
  };
}
