import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pgPoolOf } from '../../db/pg-pool.ts';
import type { AppMetrics } from '../../lib/app-metrics.ts';
import type { JobQueueFigures } from '../../jobs/queue.ts';
import type { MetricsRepository } from './metrics.repository.ts';

/** Storage bytes by app are summed at most this often: a scrape every 15 s must not sum 200,000 versions each time. */
export const STORAGE_CACHE_MS = 60_000;

export interface MetricsServiceDeps {
  metrics: AppMetrics;
  repository: MetricsRepository;
  /** The database handle (its pg pool, if any, is found through it). */
  db: object;
  queueFigures: () => Promise<JobQueueFigures[]>;
}

/**
 * Adds the gauges read at scrape time to the app's registry (job queue, storage by app, database pool, process
 * memory, event-loop lag) and renders the whole text. Nothing runs between scrapes but the event-loop delay sampler,
 * started by the first scrape.
 */
export function createMetricsService(deps: MetricsServiceDeps) {
  const { registry } = deps.metrics;
  type StorageRows = Awaited<ReturnType<MetricsRepository['storageByApp']>>;
  let storage: { at: number; rows: StorageRows } | null = null;
  let storageRunning: Promise<StorageRows> | null = null;
  let loopDelay: ReturnType<typeof monitorEventLoopDelay> | null = null;
  let figures: JobQueueFigures[] = [];

  async function storageRows(): Promise<StorageRows> {
    // Monotonic time: a test's frozen domain clock must not freeze the cache.
    if (storage && performance.now() - storage.at < STORAGE_CACHE_MS) return storage.rows;
    storageRunning ??= deps.repository
      .storageByApp()
      .then((rows) => {
        storage = { at: performance.now(), rows };
        return rows;
      })
      .finally(() => {
        storageRunning = null;
      });
    return storageRunning;
  }

  registry.gauge('release_jobs', 'Durable jobs by kind and status (pending, running, failed)', async () => {
    figures = await deps.queueFigures();
    return figures.flatMap((f) =>
      (['pending', 'running', 'failed'] as const).map((status) => ({
        labels: { kind: f.kind, status },
        value: f[status],
      })),
    );
  });
  // Collected right after release_jobs (gauges are collected in order): the same figures.
  registry.gauge('release_jobs_oldest_pending_age_seconds', 'How long the oldest due job of a kind has waited', () =>
    figures.map((f) => ({ labels: { kind: f.kind }, value: f.oldestPendingAgeMs / 1000 })),
  );
  registry.gauge(
    'release_storage_bytes',
    'Bytes of the packages each app keeps (summed at most once a minute)',
    async () =>
      (await storageRows()).map((r) => ({ labels: { app_id: String(r.appId), app: r.appName }, value: r.bytes })),
  );
  registry.gauge('release_db_pool_connections', 'PostgreSQL pool connections: open, idle, waiting, max', () => {
    // SQLite has no pool: one connection in the process (the series is absent there).
    const pool = pgPoolOf(deps.db);
    if (!pool) return [];
    const u = pool.usage();
    return [
      { labels: { state: 'total' }, value: u.total },
      { labels: { state: 'idle' }, value: u.idle },
      { labels: { state: 'waiting' }, value: u.waiting },
      { labels: { state: 'max' }, value: u.max },
    ];
  });
  registry.gauge('release_db_info', 'The database this process runs on', () => [
    { labels: { dialect: pgPoolOf(deps.db) ? 'postgres' : 'sqlite' }, value: 1 },
  ]);
  registry.gauge('process_resident_memory_bytes', 'Resident memory of the process', () => [
    { labels: {}, value: process.memoryUsage.rss() },
  ]);
  registry.gauge('nodejs_heap_bytes', 'V8 heap: used and total', () => {
    const m = process.memoryUsage();
    return [
      { labels: { kind: 'used' }, value: m.heapUsed },
      { labels: { kind: 'total' }, value: m.heapTotal },
      { labels: { kind: 'external' }, value: m.external },
    ];
  });
  registry.gauge('nodejs_eventloop_lag_seconds', 'Event-loop delay since the previous scrape (p50, p99, max)', () => {
    if (!loopDelay) {
      loopDelay = monitorEventLoopDelay({ resolution: 20 });
      loopDelay.enable();
      return [];
    }
    // No sample yet (the sampler ticks every 20 ms): nothing rather than a zero that would claim no delay.
    if (loopDelay.count === 0) return [];
    const values = [
      { labels: { quantile: '0.5' }, value: loopDelay.percentile(50) / 1e9 },
      { labels: { quantile: '0.99' }, value: loopDelay.percentile(99) / 1e9 },
      { labels: { quantile: 'max' }, value: loopDelay.max / 1e9 },
    ];
    loopDelay.reset();
    return values;
  });

  return {
    render: () => registry.render(),
    close() {
      loopDelay?.disable();
      loopDelay = null;
    },
  };
}
export type MetricsService = ReturnType<typeof createMetricsService>;
