import { setTimeout as delay } from 'node:timers/promises';
import type { createApi } from './api.ts';

const WAIT_MS = 30_000;

/**
 * Waits for the server's own first sync of a repository workflow saved through the API (the save queues it; the
 * server's job runner does it) and answers how it went: its error, and how many items the workflow has. Usable in
 * beforeAll (expect.poll is not).
 */
export async function firstSync(
  api: ReturnType<typeof createApi>,
  token: string,
  appId: number,
  workflowId: number,
): Promise<{ error: string | null; items: number }> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = (
      await api.call<Array<{ id: number; lastSyncTime: number | null; lastSyncError: string | null }>>(
        'GET',
        `/api/workflow?appId=${appId}`,
        token,
      )
    ).find((w) => w.id === workflowId);
    if (row && (row.lastSyncTime !== null || row.lastSyncError !== null)) {
      const list = await api.call<{ list: unknown[] }>(
        'GET',
        `/api/commit_log_list?workflowIds=${workflowId}&pageSize=200&onlyCliff=false`,
        token,
      );
      return { error: row.lastSyncError, items: list.list.length };
    }
    if (Date.now() > deadline)
      throw new Error(`workflow ${workflowId} was not synced within ${WAIT_MS} ms of being saved`);
    await delay(200);
  }
}
