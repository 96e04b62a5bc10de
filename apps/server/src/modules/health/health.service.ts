import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { databaseFault } from '../../db/faults.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { isDiskFull } from '../../storage/faults.ts';

/** How long each check may take before it counts as failed: a load balancer's probe must not hang on us. */
export const CHECK_TIMEOUT_MS = 2_000;
/** A result is reused this long, and probes arriving during a check share it: /readyz costs at most one query and one write a second. */
const REUSE_MS = 1_000;
/** Rewritten by every check: the store's real write path (a temporary file and a rename locally, a PUT on S3). */
export const READY_PROBE_KEY = 'health/ready-probe';

export type CheckState = 'ok' | 'unavailable' | 'full' | 'timeout';

export interface Readiness {
  ready: boolean;
  database: CheckState;
  storage: CheckState;
}

function withTimeout(work: Promise<unknown>, classify: (error: unknown) => CheckState): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckState>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), CHECK_TIMEOUT_MS);
  });
  const checked = work.then(
    () => 'ok' as const,
    (error: unknown) => classify(error),
  );
  return Promise.race([checked, timeout]).finally(() => clearTimeout(timer));
}

/** Readiness of this process for traffic: its database answers and its store takes a write. */
export function createHealthService(deps: { db: Kysely<Database>; blobs: BlobStore }) {
  let last: { at: number; result: Readiness } | null = null;
  let running: Promise<Readiness> | null = null;

  async function check(): Promise<Readiness> {
    const [database, storage] = await Promise.all([
      withTimeout(sql`select 1`.execute(deps.db), (error) =>
        databaseFault(error) === 'full' ? 'full' : 'unavailable',
      ),
      withTimeout(deps.blobs.put(READY_PROBE_KEY, Buffer.from('ok'), { contentType: 'text/plain' }), (error) =>
        isDiskFull(error) ? 'full' : 'unavailable',
      ),
    ]);
    return { ready: database === 'ok' && storage === 'ok', database, storage };
  }

  return {
    async readiness(): Promise<Readiness> {
      // Monotonic time, not the domain clock: a test's frozen clock must not freeze the answer.
      if (last && performance.now() - last.at < REUSE_MS) return last.result;
      running ??= check().then((result) => {
        last = { at: performance.now(), result };
        running = null;
        return result;
      });
      return running;
    },
  };
}
export type HealthService = ReturnType<typeof createHealthService>;
