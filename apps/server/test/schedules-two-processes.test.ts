import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema, openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { createScheduleRepository } from '../src/jobs/schedule.repository.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { startServerChild, type ServerChild } from './helpers/server-child.ts';

const INTERVAL_MS = 1000;

// Two real server processes on one database, polling every second: each poll is taken by one of them.
describe.each(testDialects())('the repository poll with two server processes on one %s database', (dialect) => {
  const schema = `two_sched_${randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-two-sched-'));
  const env: Record<string, string> =
    dialect === 'postgres'
      ? { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: schema, SECRET_KEY: randomBytes(32).toString('hex') }
      : { DATA_DIR: dataDir };
  const servers: ServerChild[] = [];
  let handle: DatabaseHandle;

  beforeAll(async () => {
    // One after the other: the first migrates (and, on SQLite, stores the server key the second then reads).
    for (let i = 0; i < 2; i++)
      servers.push(await startServerChild(dialect, { env: { ...env, SYNC_INTERVAL_SEC: String(INTERVAL_MS / 1000) } }));
    handle = await openDatabase({
      url: dialect === 'postgres' ? TEST_POSTGRES_URL : undefined,
      schema,
      sqliteFile: path.join(dataDir, 'release.db'),
    });
  });
  afterAll(async () => {
    await handle?.destroy();
    for (const server of servers) await server.stop();
    if (dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs once per interval across both processes, never twice in one interval', async () => {
    const schedules = createScheduleRepository(handle.db);
    await expect
      .poll(async () => (await schedules.runs('repository-poll')).filter((r) => r.finish_time !== null).length, {
        timeout: 30_000,
        interval: 200,
      })
      .toBeGreaterThanOrEqual(5);
    const runs = await schedules.runs('repository-poll');
    // Each run starts at least one interval after the one before it, whichever process took it.
    for (let i = 1; i < runs.length; i++)
      expect(runs[i]!.start_time - runs[i - 1]!.start_time).toBeGreaterThanOrEqual(INTERVAL_MS);
    expect(runs.every((r) => r.error === null)).toBe(true);
  });
});
