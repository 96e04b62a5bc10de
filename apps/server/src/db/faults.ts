/**
 * Which failures of the database are the database being away or its disk full — faults of the place, not of the
 * request — so that the request gets 503 or 507 instead of a 500, and background work logs and tries again later.
 */
export type DatabaseFault = 'unavailable' | 'full';

/** Errors that came out of our PostgreSQL driver (pool checkout or a query): a socket error code means the server's connection. */
const fromPostgres = new WeakSet<object>();

/** Marks an error thrown by the PostgreSQL pool or one of its connections (db/pg-pool.ts). */
export function markPostgresError<T>(error: T): T {
  if (typeof error === 'object' && error !== null) fromPostgres.add(error);
  return error;
}

/**
 * SQLSTATEs of a server that is not there for us: class 08 (connection exception) but 08P01 (a protocol error is a
 * bug), 57P01-57P03 (terminated by an administrator, a crash, or starting/stopping), 53300 (too many connections),
 * 57014 (canceled: past DATABASE_STATEMENT_TIMEOUT_MS, a server too slow or a lock held too long).
 */
function pgUnavailable(code: string): boolean {
  return (
    (code.startsWith('08') && code !== '08P01') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === '53300' ||
    code === '57014'
  );
}

/** What pg itself says when a connection goes or cannot be had (its errors without a SQLSTATE). */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'Query read timeout',
];

// SQLite primary result codes (the extended code's low byte): BUSY and LOCKED outlast busy_timeout; FULL is the disk.
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_FULL = 13;

function faultOf(error: object): DatabaseFault | null {
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const primary = e.errcode & 0xff;
    if (primary === SQLITE_FULL) return 'full';
    if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) return 'unavailable';
    return null;
  }
  if (!fromPostgres.has(error)) return null;
  const code = typeof e.code === 'string' ? e.code : '';
  // 53100 disk_full: the PostgreSQL server's own disk.
  if (code === '53100') return 'full';
  // A socket error (ECONNRESET, ECONNREFUSED, EPIPE, ETIMEDOUT…) on the server's connection (no SQLSTATE class starts with E).
  if (/^E[A-Z]+$/.test(code)) return 'unavailable';
  if (/^[0-9A-Z]{5}$/.test(code)) return pgUnavailable(code) ? 'unavailable' : null;
  const message = typeof e.message === 'string' ? e.message : '';
  return PG_CONNECTION_MESSAGES.some((known) => message.startsWith(known)) ? 'unavailable' : null;
}

/** The database fault behind `error` (or one of its causes), or null for any other error. */
export function databaseFault(error: unknown): DatabaseFault | null {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const fault = faultOf(current);
    if (fault) return fault;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
