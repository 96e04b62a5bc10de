import type pg from 'pg';
import { databaseFault, markPostgresError } from './faults.ts';

export interface PgPoolOptions {
  url: string;
  schema: string;
  /** Connections at most. */
  max: number;
  /** How long a query waits for a free connection, or for a new one to open, before failing (then 503). */
  acquireTimeoutMs: number;
  /**
   * PostgreSQL cancels a statement running longer (statement_timeout; a wait on a lock counts), and this client gives
   * up STATEMENT_GRACE_MS later if no answer came at all (a server gone silent). 0: neither.
   */
  statementTimeoutMs: number;
  /** Shown in pg_stat_activity, so an operator (or a test) can tell this server's connections apart. */
  applicationName: string;
  /** A connection PostgreSQL ended while idle in the pool. */
  onConnectionError: (error: Error) => void;
}

type PgModule = typeof pg;
let loaded: Promise<PgModule> | undefined;

/**
 * The pg driver, imported on first use: a server on SQLite never loads it (issue 23, idle memory). Kept as a dynamic
 * import so the bundle (scripts/build-server.mjs keeps pg external) does not hoist it to a static one.
 */
export function loadPg(): Promise<PgModule> {
  loaded ??= import('pg').then((module) => module.default);
  return loaded;
}

// BIGINT (int8) holds our epoch-ms times and ids; they fit in a JS number.
function pgTypes(driver: PgModule) {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === 20) return (value: string) => Number(value);
      return driver.types.getTypeParser(oid, format);
    },
  };
}

/**
 * A pg connection that never ends the process and whose failures say they came from the database.
 *
 * pg emits 'error' on a client whose server went away (pg_terminate_backend, a restart, a reset socket); the pool
 * listens only while the client is idle, so one that goes while checked out — a query in flight, or between two
 * queries of a transaction — emitted an unheard 'error' and Node ended the process. The queries of that client fail
 * anyway (pg rejects them with the same error): here it is only heard. Query rejections are marked for databaseFault
 * (a socket error from here is the database's), and one that says the connection is gone marks the client `lost`.
 */
function watchedClientClass(driver: PgModule) {
  return class WatchedClient extends driver.Client {
    /** A query failed because this connection is gone: it goes out of the pool when released, not back in. */
    lost = false;

    constructor(config?: pg.ClientConfig) {
      super(config);
      this.on('error', () => {
        this.lost = true;
      });
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      this.query = ((...args: unknown[]) => {
        const result = query(...args);
        if (!(result instanceof Promise)) return result;
        return result.catch((error: unknown) => {
          markPostgresError(error);
          if (databaseFault(error) === 'unavailable') this.lost = true;
          return Promise.reject(error);
        });
      }) as typeof this.query;
    }
  };
}

/** The pool Kysely and the COPY copier use: bounded waits, every connection's errors heard and marked. */
export interface PgPool {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
  /** The pool's settings (Kysely opens a control connection with them to cancel a query). */
  options: object;
  /** Connections open, idle among them, and queries waiting for one (/metrics). */
  usage(): PgPoolUsage;
  /** The schema its connections use (a LISTEN channel is named after it, so two deployments never hear each other). */
  schema: string;
  /** A connection of its own outside the pool, same server and settings but no statement timeout (LISTEN). */
  openClient(): pg.Client;
}

export interface PgPoolUsage {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

const poolsOfDatabases = new WeakMap<object, PgPool>();

/** Remembers which pool a Kysely instance runs on, so /metrics can read its use without another handle. */
export function registerPgPool(db: object, pool: PgPool): void {
  poolsOfDatabases.set(db, pool);
}

/** The pool of a PostgreSQL database opened by openDatabase; undefined on SQLite. */
export function pgPoolOf(db: object): PgPool | undefined {
  return poolsOfDatabases.get(db);
}

/** How much longer than statement_timeout the client waits for any answer before it counts the server as gone. */
export const STATEMENT_GRACE_MS = 5_000;
/** TCP keepalive probes start after this much silence on a connection (the OS default is two hours). */
const KEEPALIVE_DELAY_MS = 10_000;

/** The client settings that keep a silent server from holding a request: statement and read timeouts, keepalive. */
export function pgTimeouts(
  statementTimeoutMs: number,
): Pick<pg.ClientConfig, 'statement_timeout' | 'query_timeout' | 'keepAlive' | 'keepAliveInitialDelayMillis'> {
  return {
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    ...(statementTimeoutMs > 0
      ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + STATEMENT_GRACE_MS }
      : {}),
  };
}

export function createPgPool(driver: PgModule, options: PgPoolOptions): PgPool {
  const WatchedClient = watchedClientClass(driver);
  const pool = new driver.Pool({
    connectionString: options.url,
    max: options.max,
    // Bounds both the wait for a free connection (a pool exhausted by slow queries) and the opening of a new one
    // (a server that accepts no connections): the request then fails with 503 instead of hanging.
    connectionTimeoutMillis: options.acquireTimeoutMs,
    // A server that vanished without closing the socket (a failover, a dropped network) is noticed by TCP keepalive
    // when idle, and by the read timeout when a query waits for it: the request then gets 503, never hangs.
    ...pgTimeouts(options.statementTimeoutMs),
    application_name: options.applicationName,
    options: `-c search_path="${options.schema}"`,
    types: pgTypes(driver),
    Client: WatchedClient,
  });
  // An idle connection PostgreSQL ends is reported here and replaced on the next checkout.
  pool.on('error', (error) => options.onConnectionError(error));
  return {
    async connect() {
      const client = await pool.connect().catch((error: unknown) => Promise.reject(markPostgresError(error)));
      // The server's 57P01 arrives before its socket closes: released in between, a lost connection would go back to
      // the pool as idle and fail the next query too. Released lost, the pool ends it and opens a new one when needed.
      const release = client.release.bind(client);
      client.release = (destroy?: Error | boolean) => release(destroy || (client as unknown as { lost: boolean }).lost);
      return client;
    },
    end: () => pool.end(),
    options: pool.options,
    schema: options.schema,
    openClient: () =>
      new WatchedClient({
        connectionString: options.url,
        connectionTimeoutMillis: options.acquireTimeoutMs,
        ...pgTimeouts(0),
        application_name: options.applicationName,
        types: pgTypes(driver),
      }),
    usage: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: options.max,
    }),
  };
}
