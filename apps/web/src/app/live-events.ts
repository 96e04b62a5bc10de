import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { LIVE_EVENTS_PATH, type LiveEventType } from '@release/contract';
import { commitKeys } from '../api/commit-logs.api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { readSession } from './session.store.ts';

/** Waits before connecting again: doubles from 2 s up to a minute; the 60 s poll of the bell covers the gap. */
const FIRST_RETRY_MS = 2_000;
const LAST_RETRY_MS = 60_000;

/** What each event makes stale: the open pages refetch what they show, others when next shown. */
function refresh(queryClient: QueryClient, type: LiveEventType, appId: number): void {
  const stale = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey });
  stale(queryKeys.notifications);
  if (type === 'version') {
    stale(queryKeys.apps);
    stale(queryKeys.appDetail(appId));
    stale(queryKeys.versions);
  } else if (type === 'items') {
    stale(commitKeys.all);
  } else if (type === 'task') {
    stale(queryKeys.tasks(appId));
    stale(queryKeys.taskHistories);
  }
}

/** Reads `event:` / `data:` frames off the stream as they come. */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (type: string, data: string) => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const type = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (type && data !== undefined) onEvent(type, data);
      end = buffer.indexOf('\n\n');
    }
  }
}

/**
 * Listens to GET /api/events while signed in (fetch with the session token, as every call: EventSource cannot send
 * it) and refreshes what an event makes stale, so the bell and the open app page hear of news within a second.
 * A lost stream is opened again with a growing wait; meanwhile the bell's 60 s poll goes on.
 */
export function useLiveEvents(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let wait = FIRST_RETRY_MS;
    let timer: ReturnType<typeof setTimeout> | null = null;

    const connect = async () => {
      const { token } = readSession();
      if (!token || controller.signal.aborted) return;
      try {
        const response = await fetch(LIVE_EVENTS_PATH, {
          headers: { token, Accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (response.ok && response.body) {
          await readEvents(response.body, (type, data) => {
            if (type === 'ready') {
              wait = FIRST_RETRY_MS;
              // What happened while the stream was down.
              void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
              return;
            }
            const appId = (JSON.parse(data) as { appId?: number }).appId;
            if (typeof appId === 'number') refresh(queryClient, type as LiveEventType, appId);
          });
        }
      } catch {
        // A network error or the page leaving: tried again below unless aborted.
      }
      if (controller.signal.aborted) return;
      timer = setTimeout(() => void connect(), wait);
      wait = Math.min(wait * 2, LAST_RETRY_MS);
    };
    void connect();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [enabled, queryClient]);
}
