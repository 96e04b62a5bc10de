import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';

/**
 * CPU seconds spent by each side of a measurement, from /proc (Linux): this process (node: main thread, GC and libuv
 * threads), its finished children (git), and the PostgreSQL backends serving the bench's database. On a shared
 * machine a wall-clock ratio moves with the load; CPU seconds say what the work costs and which part bounds it.
 */
const TICKS_PER_SECOND = 100;

function statCpu(file: string, userField: number): number {
  try {
    const fields = fs.readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[userField]) + Number(fields[userField + 1])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export interface CpuReading {
  node: number;
  /** Children that exited (git); a child still running is counted when it has been waited for. */
  git: number;
  /** PostgreSQL backends of the bench's database (0 on SQLite, or when the server is not on this machine). */
  db: number;
}

/**
 * PIDs of the bench's own PostgreSQL backends: its pool's connections, which carry its schema's application_name.
 * Other backends of the same database (other test runs on a shared server) are not this measurement's work.
 */
async function postgresBackends(db: Kysely<Database>): Promise<number[]> {
  const rows = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'
    and application_name = current_setting('application_name')`.execute(db);
  return rows.rows.map((row) => Number(row.pid));
}

/** This process's CPU and its finished children's, now (synchronous: usable between two calls of the sync). */
export function ownCpu(): { node: number; git: number } {
  const used = process.cpuUsage();
  // utime/stime are fields 14/15 of /proc/<pid>/stat, cutime/cstime 16/17 (1-based; index 11/13 after the name).
  return { node: (used.user + used.system) / 1e6, git: statCpu('/proc/self/stat', 13) };
}

/** Starts a reading; `stop(from)` answers the CPU seconds spent since (or since `from`, an ownCpu() taken later). */
export async function startCpu(
  db: Kysely<Database> | null,
): Promise<{ stop(from?: { node: number; git: number }): Promise<CpuReading> }> {
  const start = ownCpu();
  const backends = new Map<number, number>();
  if (db) for (const pid of await postgresBackends(db)) backends.set(pid, statCpu(`/proc/${pid}/stat`, 11));
  return {
    async stop(from = start) {
      const end = ownCpu();
      let dbCpu = 0;
      if (db)
        for (const pid of await postgresBackends(db))
          dbCpu += statCpu(`/proc/${pid}/stat`, 11) - (backends.get(pid) ?? 0);
      return { node: end.node - from.node, git: end.git - from.git, db: dbCpu };
    },
  };
}
