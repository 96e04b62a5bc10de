import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type pg from 'pg';
import { z } from 'zod';
import { pgPoolOf } from '../db/pg-pool.ts';
import type { Database } from '../db/schema.ts';
import { decodeJson } from './decode-json.ts';
import type { Logger } from './logger.ts';

import { liveEventTypes, type LiveEventType } from '@release/contract';

export type { LiveEventType };

export interface LiveEvent {
  type: LiveEventType;
  appId: number;
}

/** An event as it travels through NOTIFY; anything else on the channel is not ours and is ignored. */
const liveEvent = z.object({ type: z.enum(liveEventTypes), appId: z.int() });
/** How long the PostgreSQL listener waits before connecting again after losing its connection. */
const RECONNECT_MS = 1_000;

function parseEvent(text: string): LiveEvent | null {
  const event = decodeJson(text, liveEvent);
  return event.ok ? event.value : null;
}

/**
 * Events of this installation for the browsers connected to any of its processes. On SQLite (one process) they go
 * from publisher to listeners in memory; on PostgreSQL through NOTIFY on a channel named after the schema, heard by a
 * LISTEN connection each process opens when its first browser connects (and closes when the last one leaves), so an
 * upload on one process reaches a browser connected to another. Publishing never fails its caller.
 */
export function createLiveHub(deps: { db: Kysely<Database>; logger: Logger }) {
  const listeners = new Set<(event: LiveEvent) => void>();
  const pool = pgPoolOf(deps.db);
  const channel = pool ? `release_live:${pool.schema}`.slice(0, 63) : null;
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let retry: NodeJS.Timeout | null = null;

  function deliver(event: LiveEvent) {
    for (const listener of listeners) listener(event);
  }

  function dropClient() {
    const old = client;
    client = null;
    old?.removeAllListeners('notification');
    void old?.end().catch(() => undefined);
  }

  function listen(): Promise<void> {
    if (!pool || !channel || client) return Promise.resolve();
    connecting ??= (async () => {
      const c = pool.openClient();
      c.on('notification', (message) => {
        if (message.channel !== channel || !message.payload) return;
        const event = parseEvent(message.payload);
        if (event) deliver(event);
      });
      // A lost connection (a restart, a failover): listen again while anyone is connected.
      c.on('error', () => undefined);
      c.on('end', () => {
        if (client !== c) return;
        client = null;
        if (listeners.size > 0 && !retry)
          retry = setTimeout(() => {
            retry = null;
            if (listeners.size > 0) void listen().catch(() => undefined);
          }, RECONNECT_MS);
      });
      await c.connect();
      await c.query(`listen "${channel.replace(/"/g, '""')}"`);
      client = c;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  return {
    /** Tells every listener of the installation (fire and forget: a lost event costs a browser one poll). */
    publish(event: LiveEvent): void {
      if (!channel) {
        // After the caller's own work, as a NOTIFY would arrive.
        setImmediate(() => deliver(event));
        return;
      }
      sql`select pg_notify(${channel}, ${JSON.stringify(event)})`
        .execute(deps.db)
        .catch((err: unknown) => deps.logger.warn({ err }, 'publishing a live event failed'));
    },

    /** Adds a listener; resolves once events published from now on will reach it (the LISTEN is in place). */
    async subscribe(listener: (event: LiveEvent) => void): Promise<() => void> {
      listeners.add(listener);
      try {
        await listen();
      } catch (error) {
        listeners.delete(listener);
        throw error;
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) dropClient();
      };
    },

    async close(): Promise<void> {
      listeners.clear();
      if (retry) clearTimeout(retry);
      retry = null;
      await connecting?.catch(() => undefined);
      dropClient();
    },
  };
}
export type LiveHub = ReturnType<typeof createLiveHub>;
