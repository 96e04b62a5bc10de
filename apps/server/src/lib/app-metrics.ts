import { createRegistry, type Counter, type Histogram, type Registry } from './prometheus.ts';

/** Request latency buckets, seconds: from a cached answer to a slow package listing. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The counters the HTTP layer and the modules add to as things happen (one set per app, in `core.metrics`); the
 * gauges read at scrape time (job queue, storage, database pool, process) are added by the metrics module.
 */
export interface AppMetrics {
  registry: Registry;
  /** Answered requests by method, route pattern (never the URL) and status code. */
  requests: Counter<'method' | 'route' | 'status'>;
  requestSeconds: Histogram<'method' | 'route' | 'status'>;
  /** Lark / WeCom deliveries by receiver kind and outcome (sent, failed, retry). */
  deliveries: Counter<'receiver' | 'outcome'>;
  /** Packages stored as new versions, by platform, and their bytes. */
  uploads: Counter<'platform'>;
  uploadBytes: Counter<'platform'>;
}

export function createAppMetrics(): AppMetrics {
  const registry = createRegistry();
  return {
    registry,
    requests: registry.counter('release_http_requests_total', 'HTTP requests answered', ['method', 'route', 'status']),
    requestSeconds: registry.histogram(
      'release_http_request_duration_seconds',
      'Time to answer an HTTP request',
      ['method', 'route', 'status'],
      LATENCY_BUCKETS,
    ),
    deliveries: registry.counter('release_deliveries_total', 'Lark and WeCom message deliveries settled', [
      'receiver',
      'outcome',
    ]),
    uploads: registry.counter('release_uploads_total', 'Packages stored as new versions', ['platform']),
    uploadBytes: registry.counter('release_upload_bytes_total', 'Bytes of the packages stored as new versions', [
      'platform',
    ]),
  };
}
