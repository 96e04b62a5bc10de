import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  dropPostgresSchema,
  migrateToLatest,
  openDatabase,
  pgApplicationName,
  sql,
  type DatabaseHandle,
} from '../src/db/database.ts';
import { databaseFault } from '../src/db/faults.ts';
import { pgCopierOf } from '../src/db/pg-copy.ts';
import { defineJob } from '../src/jobs/job-definition.ts';
import { createJobQueue } from '../src/jobs/queue.ts';
import { systemClock } from '../src/lib/clock.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { silentLogger } from '../src/lib/logger.ts';

/** How long a condition may take to come about on a loaded machine (the server project's default is 1 s). */
const WAIT = { timeout: 15_000 };

/** Rows until the copy is ended from outside (never all of them: the generator outlasts the test). */
function* endlessRows(workflowId: number) {
  for (let i = 0; ; i += 1) yield [1, workflowId, `c${i}`, i, 'x', 'alice', 0, 1, 1];
}
const COLUMNS = [
  'app_id',
  'workflow_id',
  'commit_id',
  'commit_time',
  'commit_message',
  'remark',
  'is_filtered',
  'create_time',
  'update_time',
];

// PostgreSQL only: SQLite has no connections to lose.
describe.each(testDialects().filter((d) => d === 'postgres'))(
  'a PostgreSQL connection ended by the server (%s)',
  () => {
    const schema = `loss_${randomBytes(4).toString('hex')}`;
    let handle: DatabaseHandle;
    let other: DatabaseHandle;
    const lost: string[] = [];

    beforeAll(async () => {
      handle = await openDatabase({
        url: TEST_POSTGRES_URL,
        schema,
        sqliteFile: ':memory:',
        onConnectionError: (error) => lost.push(error.message),
      });
      await migrateToLatest(handle);
      other = await openDatabase({
        url: TEST_POSTGRES_URL,
        schema,
        sqliteFile: ':memory:',
        applicationName: 'loss-observer',
      });
      await sql`insert into apps (id, app_name, app_type, path, public_path, password, create_time, update_time) values (1, 'a', 'unity', 'a', 'a', 'x', 0, 0)`.execute(
        handle.db,
      );
      await sql`insert into workflows (id, app_id, tab_name, content_type, order_no, webhook_token, webhook_secret, create_time, update_time) values (1, 1, 't', 'default', 0, 't', 's', 0, 0)`.execute(
        handle.db,
      );
    });
    afterAll(async () => {
      await other?.destroy();
      await handle?.destroy();
      await dropPostgresSchema(TEST_POSTGRES_URL, schema);
    });

    /** Ends the backend running this test's own COPY (its column list is no other test's) once it runs, unless `done`. */
    async function terminateCopy(done: () => boolean): Promise<void> {
      const text = `copy "commit_logs" (${COLUMNS.map((c) => `"${c}"`).join(', ')}) from stdin`;
      while (!done()) {
        const rows = (
          await sql<{
            ended: boolean;
          }>`select pg_terminate_backend(pid) as ended from pg_stat_activity where query = ${text} and state = 'active'`.execute(
            other.db,
          )
        ).rows;
        if (rows.length > 0) return;
      }
    }

    it("fails a COPY under way with the server's reason, stores none of it, and the process and the pool go on", async () => {
      const copier = pgCopierOf(handle.db);
      if (!copier) throw new Error('no copier on a PostgreSQL database');
      let settled = false;
      const outcome = copier.copyRows('commit_logs', COLUMNS, endlessRows(1)).then(
        () => 'all stored',
        (error: unknown) => error,
      );
      void outcome.finally(() => (settled = true));
      await terminateCopy(() => settled);
      // The server's 57P01 (terminating connection due to administrator command) when its message arrives first, or the
      // reset socket (ECONNRESET, EPIPE) when the copy was still writing: either way the connection was lost, and says so.
      const failure = await outcome;
      expect(failure).toBeInstanceOf(Error);
      expect(databaseFault(failure)).toBe('unavailable');
      expect((await sql<{ n: number }>`select count(*) as n from commit_logs`.execute(handle.db)).rows[0]?.n).toBe(0);
      expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows).toEqual([{ one: 1 }]);
    });

    it('an idle pooled connection ended by the server is reported and replaced, not fatal', async () => {
      // The pool's one idle connection (a single query at a time uses the same one): ended from outside.
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]?.pid;
      await sql`select pg_terminate_backend(${pid})`.execute(other.db);
      await expect.poll(() => lost.length, WAIT).toBeGreaterThan(0);
      expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows).toEqual([{ one: 1 }]);
    });

    it('a job whose connection is ended is run again later, whatever its attempts, and the runner goes on', async () => {
      const queue = createJobQueue({ db: handle.db, clock: systemClock, logger: silentLogger, owner: 'loss-test' });
      const sleeper = defineJob({
        kind: 'loss.sleep',
        payload: z.object({}),
        maxAttempts: 1,
        run: async () => sql`select pg_sleep(30)`.execute(handle.db),
      });
      const quick = defineJob({
        kind: 'loss.quick',
        payload: z.object({}),
        maxAttempts: 1,
        run: async () => sql`select 1`.execute(handle.db),
      });
      queue.register(sleeper);
      queue.register(quick);
      const { id } = await queue.enqueue(sleeper, {});
      const drained = queue.runDue();
      // Its connection, while it sleeps, is ended from outside.
      await expect
        .poll(
          async () =>
            (
              await sql<{
                pid: number;
              }>`select pg_terminate_backend(pid, 10000) from pg_stat_activity where application_name = ${pgApplicationName(schema)} and query = 'select pg_sleep(30)' and state = 'active'`.execute(
                other.db,
              )
            ).rows.length,
          WAIT,
        )
        .toBe(1);
      expect(await drained).toBe(1);
      // Its one attempt is used, yet it is not failed: the database was away, not the job wrong.
      const job = await handle.db
        .selectFrom('jobs')
        .select(['status', 'attempts', 'last_error'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(job).toMatchObject({ status: 'pending', attempts: 1 });
      const next = await queue.enqueue(quick, {});
      expect(await queue.runDue()).toBe(1);
      expect(
        (await handle.db.selectFrom('jobs').select('status').where('id', '=', next.id).executeTakeFirstOrThrow())
          .status,
      ).toBe('done');
    });
  },
);
