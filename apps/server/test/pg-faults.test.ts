import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '@release/contract';
import { dropPostgresSchema, openDatabase, pgApplicationName, sql, type DatabaseHandle } from '../src/db/database.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { startPrivatePostgres, type PrivatePostgres } from './helpers/private-postgres.ts';
import { startSignedInProcess, type SignedInProcess } from './helpers/signed-in-process.ts';
import { startSilentTcpProxy, type SilentTcpProxy } from './helpers/silent-tcp-proxy.ts';

/** How long a condition may take to come about on a loaded machine (the server project's default is 1 s). */
const WAIT = { timeout: 15_000 };

interface Answer {
  status: number;
  code: number;
  msg: string;
}

async function get(server: SignedInProcess, urlPath: string): Promise<Answer> {
  const res = await fetch(`${server.url}${urlPath}`, { headers: { token: server.token } });
  const body = (await res.json()) as { code: number; msg: string };
  return { status: res.status, code: body.code, msg: body.msg };
}

/** The real server process (as `npm start` runs it) on PostgreSQL, its files in a temporary DATA_DIR. */
async function startOnPostgres(env: Record<string, string>): Promise<SignedInProcess & { removeDataDir(): void }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-pg-faults-'));
  const server = await startSignedInProcess({
    DATA_DIR: dataDir,
    SECRET_KEY: randomBytes(48).toString('base64url'),
    ...env,
  });
  return { ...server, removeDataDir: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

const unavailable = { status: 503, code: 503, msg: Messages.databaseUnavailable };
const listed = { status: 200, code: 200, msg: 'success' };
const APPS = '/api/apps?pageNo=1&pageSize=20';

/**
 * A lock on `sessions` held by another connection: every signed-in request sent meanwhile waits in PostgreSQL in its
 * first query (the session's), holding one connection, so it is surely in flight when something happens to that
 * connection. Answers a release (also kept in `held`, for an afterAll to let go of a lock a failed test left).
 */
const held = new Set<() => Promise<void>>();
async function holdSessions(db: DatabaseHandle['db']): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await sql`lock table sessions in access exclusive mode`.execute(trx);
    locked();
    await released;
  });
  await isLocked;
  const letGo = async () => {
    held.delete(letGo);
    release();
    await transaction;
  };
  held.add(letGo);
  return letGo;
}

async function letGoOfLocks(): Promise<void> {
  for (const letGo of [...held]) await letGo().catch(() => undefined);
}

/** How many of the server's connections are waiting for that lock. */
async function waitingOnLock(observer: DatabaseHandle['db'], schema: string): Promise<number> {
  const rows = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_stat_activity where application_name = ${pgApplicationName(schema)} and wait_event_type = 'Lock'`.execute(
    observer,
  );
  return rows.rows[0]?.n ?? 0;
}

/**
 * Ends every connection of that server process (only its own: its application_name names its schema), each time
 * waiting until the backend is gone (PostgreSQL 14+), so that none of them still runs its query when the lock goes.
 */
async function terminateServerConnections(observer: DatabaseHandle['db'], schema: string): Promise<number> {
  const rows = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where application_name = ${pgApplicationName(schema)}`.execute(observer);
  for (const { pid } of rows.rows) await sql`select pg_terminate_backend(${pid}, 10000)`.execute(observer);
  return rows.rows.length;
}

interface SharedPostgresWorld {
  schema: string;
  server: Awaited<ReturnType<typeof startOnPostgres>>;
  /** A connection of the test's own (another application_name) to look at and lock the server's tables. */
  observer: DatabaseHandle;
}

/** A server process on the shared PostgreSQL, in a schema of its own, for the describe block that calls this. */
function serverOnSharedPostgres(prefix: string, env: Record<string, string> = {}): SharedPostgresWorld {
  const world = { schema: `${prefix}_${randomBytes(4).toString('hex')}` } as SharedPostgresWorld;
  beforeAll(async () => {
    world.server = await startOnPostgres({ DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: world.schema, ...env });
    world.observer = await openDatabase({
      url: TEST_POSTGRES_URL,
      schema: world.schema,
      sqliteFile: ':memory:',
      applicationName: 'observer',
    });
  });
  afterAll(async () => {
    await letGoOfLocks();
    await world.server?.stop();
    world.server?.removeDataDir();
    await world.observer?.destroy();
    await dropPostgresSchema(TEST_POSTGRES_URL, world.schema);
  });
  return world;
}

// PostgreSQL only: SQLite has no connections to lose. Each case runs the real server process, as `npm start` does.
describe.each(testDialects().filter((d) => d === 'postgres'))(
  'the server process when PostgreSQL connections fail (%s)',
  () => {
    describe('connections ended under load', () => {
      const world = serverOnSharedPostgres('pgf');

      it('answers the requests in flight 503 数据库暂时不可用 or serves them, stays up, and serves the next ones — five times over', async () => {
        const { server, observer, schema } = world;
        for (let round = 0; round < 5; round += 1) {
          const release = await holdSessions(observer.db);
          const inFlight = Array.from({ length: 20 }, () => get(server, APPS));
          // The pool's 10 connections are all inside PostgreSQL, waiting; the other 10 requests wait for one.
          await expect.poll(() => waitingOnLock(observer.db, schema), WAIT).toBe(10);
          expect(await terminateServerConnections(observer.db, schema)).toBeGreaterThanOrEqual(10);
          await release();
          const answers = await Promise.all(inFlight);
          for (const answer of answers) expect([unavailable, listed]).toContainEqual(answer);
          // The 10 whose connection was ended got the clear answer, not a 500 or a reset.
          expect(answers.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(10);
          expect(server.isRunning()).toBe(true);
          // The next requests find new connections.
          const after = await Promise.all(Array.from({ length: 20 }, () => get(server, APPS)));
          expect(after).toEqual(Array.from({ length: 20 }, () => listed));
        }
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
      });
    });

    describe('a pool with every connection busy', () => {
      const world = serverOnSharedPostgres('pgp', { DATABASE_POOL_SIZE: '2', DATABASE_POOL_WAIT_MS: '500' });

      it('answers 503 to the requests that waited DATABASE_POOL_WAIT_MS for a connection, while the others still wait, and serves them all afterwards', async () => {
        const { server, observer, schema } = world;
        const release = await holdSessions(observer.db);
        const answered: Answer[] = [];
        const inFlight = Array.from({ length: 4 }, () => get(server, APPS).then((a) => void answered.push(a)));
        // Both connections wait on the lock: two requests hold them, the other two cannot get one.
        await expect.poll(() => waitingOnLock(observer.db, schema), WAIT).toBe(2);
        // Those two are answered while the lock is still held: they did not wait for it, nor forever.
        await expect.poll(() => answered.length, WAIT).toBe(2);
        expect(answered).toEqual([unavailable, unavailable]);
        await release();
        await Promise.all(inFlight);
        expect(answered.slice(2)).toEqual([listed, listed]);
        expect(await Promise.all(Array.from({ length: 6 }, () => get(server, APPS)))).toEqual(
          Array.from({ length: 6 }, () => listed),
        );
        expect(server.isRunning()).toBe(true);
      });
    });

    describe('a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS', () => {
      const world = serverOnSharedPostgres('pgt', { DATABASE_STATEMENT_TIMEOUT_MS: '700' });

      it('is canceled: the requests waiting on a lock nobody lets go get 503 while it is still held, and the next ones are served', async () => {
        const { server, observer, schema } = world;
        const release = await holdSessions(observer.db);
        const answered: Answer[] = [];
        const inFlight = Array.from({ length: 6 }, () => get(server, APPS).then((a) => void answered.push(a)));
        await expect.poll(() => answered.length, WAIT).toBe(6);
        expect(answered).toEqual(Array.from({ length: 6 }, () => unavailable));
        // Nothing of ours waits on the lock any more: PostgreSQL canceled those statements.
        expect(await waitingOnLock(observer.db, schema)).toBe(0);
        await release();
        await Promise.all(inFlight);
        expect(await Promise.all(Array.from({ length: 6 }, () => get(server, APPS)))).toEqual(
          Array.from({ length: 6 }, () => listed),
        );
        expect(server.isRunning()).toBe(true);
      });
    });

    describe('a PostgreSQL server that falls silent (no reset, no close)', () => {
      const schema = `pgs_${randomBytes(4).toString('hex')}`;
      let proxy: SilentTcpProxy;
      let server: Awaited<ReturnType<typeof startOnPostgres>>;
      beforeAll(async () => {
        proxy = await startSilentTcpProxy(TEST_POSTGRES_URL);
        server = await startOnPostgres({
          DATABASE_URL: proxy.url,
          DATABASE_SCHEMA: schema,
          DATABASE_STATEMENT_TIMEOUT_MS: '500',
          DATABASE_POOL_WAIT_MS: '1000',
        });
      });
      afterAll(async () => {
        await server?.stop();
        server?.removeDataDir();
        await proxy?.close();
        await dropPostgresSchema(TEST_POSTGRES_URL, schema);
      });

      it('answers 503 instead of hanging (the statement timeout plus its grace, or the connection wait), stays up, and serves once it speaks again', async () => {
        // Warm connections in the pool first, so the silence meets queries sent on open connections too.
        expect(await Promise.all(Array.from({ length: 4 }, () => get(server, APPS)))).toEqual(
          Array.from({ length: 4 }, () => listed),
        );
        proxy.silence();
        const whileSilent = await Promise.all(Array.from({ length: 8 }, () => get(server, APPS)));
        expect(whileSilent).toEqual(Array.from({ length: 8 }, () => unavailable));
        expect(server.isRunning()).toBe(true);
        proxy.speak();
        await expect.poll(async () => (await get(server, APPS)).status, WAIT).toBe(200);
        expect(await Promise.all(Array.from({ length: 4 }, () => get(server, APPS)))).toEqual(
          Array.from({ length: 4 }, () => listed),
        );
        expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
      });
    });

    describe('a PostgreSQL server that restarts and stops', () => {
      let postgres: PrivatePostgres;
      let server: Awaited<ReturnType<typeof startOnPostgres>>;
      let observer: DatabaseHandle;
      const schema = 'public';

      beforeAll(async () => {
        postgres = await startPrivatePostgres();
        server = await startOnPostgres({ DATABASE_URL: postgres.url, DATABASE_POOL_WAIT_MS: '2000' });
        observer = await openDatabase({
          url: postgres.url,
          schema,
          sqliteFile: ':memory:',
          applicationName: 'observer',
          onConnectionError: () => undefined,
        });
      });
      afterAll(async () => {
        await letGoOfLocks();
        await server?.stop();
        server?.removeDataDir();
        await observer?.destroy().catch(() => undefined);
        await postgres?.destroy();
      });

      it('survives a restart under load and a stop: 503 while it is away, /readyz names the database, and everything works once it is back', async () => {
        const release = await holdSessions(observer.db);
        const inFlight = Array.from({ length: 20 }, () => get(server, APPS));
        await expect.poll(() => waitingOnLock(observer.db, schema), WAIT).toBe(10);
        // A fast restart ends every connection (the observer's lock with them).
        await postgres.restart();
        await release().catch(() => undefined);
        for (const answer of await Promise.all(inFlight)) expect([unavailable, listed]).toContainEqual(answer);
        await expect.poll(async () => (await get(server, APPS)).status, WAIT).toBe(200);

        await postgres.stop();
        // Refused connections are answered at once, 503 each time, and the process stays.
        const whileDown = await Promise.all(Array.from({ length: 20 }, () => get(server, APPS)));
        expect(whileDown).toEqual(Array.from({ length: 20 }, () => unavailable));
        const health = await fetch(`${server.url}/healthz`);
        expect(health.status).toBe(200);
        await expect
          .poll(async () => {
            const res = await fetch(`${server.url}/readyz`);
            return { status: res.status, body: await res.json() };
          }, WAIT)
          .toEqual({
            status: 503,
            body: {
              code: 503,
              msg: '服务未就绪：数据库不可用',
              data: { status: 'not ready', database: 'unavailable', storage: 'ok' },
            },
          });

        await postgres.start();
        await expect.poll(async () => (await get(server, APPS)).status, WAIT).toBe(200);
        await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, WAIT).toBe(200);
        expect(server.isRunning()).toBe(true);
      });
    });
  },
);
