import type { TestServer } from './test-app.ts';

/**
 * How long one `GET /api/apps` may take while hostile input is being handled: far above any normal answer on
 * a loaded machine, far below the freezes of issue 15 (19-79 s). A frozen event loop fails the request.
 */
export const ANSWER_LIMIT_MS = 10_000;

export interface Answering<T> {
  result: T;
  /** `GET /api/apps` answers received while `work` ran (at least the one started with it). */
  answered: number;
  /** Every status seen, for the assertion message. */
  statuses: number[];
}

/** Runs `work` while another client keeps asking `GET /api/apps`, each request under ANSWER_LIMIT_MS. */
export async function whileListingApps<T>(
  server: TestServer,
  token: string,
  work: () => Promise<T>,
): Promise<Answering<T>> {
  let done = false;
  const statuses: number[] = [];
  const lister = (async () => {
    do {
      const response = await fetch(`${server.url}/api/apps?pageNo=1&pageSize=20`, {
        headers: { token },
        signal: AbortSignal.timeout(ANSWER_LIMIT_MS),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    } while (!done);
  })();
  let result: T;
  try {
    result = await work();
  } finally {
    done = true;
    await lister;
  }
  return { result, answered: statuses.length, statuses };
}
