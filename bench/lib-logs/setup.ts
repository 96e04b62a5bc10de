import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  dropPostgresSchema,
  migrateToLatest,
  openDatabase,
  sql,
  type DatabaseHandle,
  type DialectName,
} from '../../apps/server/src/db/database.ts';
import { sha256Hex } from '../../apps/server/src/lib/crypto.ts';
import type { AuthUser } from '../../apps/server/src/modules/auth/session.service.ts';
import { createLinks, type Links } from '../../apps/server/src/http/links.ts';
import { buildApp, type BuiltApp } from '../../apps/server/src/app.ts';
import { createLocalBlobStore } from '../../apps/server/src/storage/local-blob-store.ts';
import { createUrlSigner } from '../../apps/server/src/storage/url-signer.ts';
import { committers, FILTER_SIZE, FILTERED_WORKFLOW, loadRows, WORKFLOWS, type Layout } from './dataset.ts';

export const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECRET = 'bench-secret-'.padEnd(40, 'x');

/** One database with the app, its workflows and a viewer, through the real services. */
export interface BenchDb {
  dialect: DialectName;
  handle: DatabaseHandle;
  /** The app, built and not listening: its modules' services. */
  built: BuiltApp;
  presenter: Links;
  admin: AuthUser;
  /** A member with the `view` permit on the app: the trend goes through the appIds filter. */
  viewer: AuthUser;
  layout: Layout;
  close(): Promise<void>;
}

/** Opens (SQLite file under `dir`, or a fresh PostgreSQL schema), migrates and wires the real services. */
export async function openBenchDb(
  dialect: DialectName,
  dir: string,
  label: string,
): Promise<Omit<BenchDb, 'layout' | 'admin' | 'viewer'>> {
  const schema = `bench_${label}_${randomBytes(4).toString('hex')}`;
  const dbDir = fs.mkdtempSync(path.join(dir, `${label}-`));
  const handle = await openDatabase({
    url: dialect === 'postgres' ? POSTGRES_URL : undefined,
    schema,
    sqliteFile: path.join(dbDir, 'release.db'),
  });
  let closeApp = async () => undefined;
  const close = async () => {
    await closeApp().catch(() => undefined);
    await handle.destroy().catch(() => undefined);
    if (dialect === 'postgres') await dropPostgresSchema(POSTGRES_URL, schema);
    fs.rmSync(dbDir, { recursive: true, force: true });
  };
  try {
    await migrateToLatest(handle);
    const clock = { now: () => Date.now() };
    const blobs = createLocalBlobStore({ root: path.join(dbDir, 'blobs'), signer: createUrlSigner(SECRET), clock });
    const built = await buildApp({
      db: handle.db,
      blobs,
      clock,
      sms: { isReal: false, send: async () => undefined },
      secret: SECRET,
      mirrorsDir: path.join(dbDir, 'mirrors'),
      // No pushes leave the bench: the hosts are loopback and nothing is queued to them.
      robotHosts: { larkOpenBaseUrl: 'http://127.0.0.1:9', wecomBaseUrl: 'http://127.0.0.1:9' },
    });
    closeApp = () => built.app.close();
    const presenter = createLinks({
      blobs,
      mediaLinks: built.core.mediaLinks,
      apiBase: 'http://127.0.0.1:3000',
      filesBase: 'http://127.0.0.1:3000',
    });
    return { dialect, handle, built, presenter, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function authUser(handle: DatabaseHandle, username: string): Promise<AuthUser> {
  const row = await handle.db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      'u.id as userId',
      'u.username as username',
      'r.role_level as roleLevel',
      'r.role_name as roleName',
      'u.phone as phone',
      'u.private_url as privateUrl',
      'u.create_time as createTime',
    ])
    .where('u.username', '=', username)
    .executeTakeFirstOrThrow();
  return { ...row, expireTime: Date.now() + 86_400_000, isAdmin: row.roleLevel === 100 };
}

/** Roles, the first admin, a viewer, one app and its workflows, all through the services. */
export async function seedApp(
  db: Omit<BenchDb, 'layout' | 'admin' | 'viewer'>,
  workflows: (rank: number) => { tabName: string; repoPath: string; committers: string[]; defaultBranch?: string },
  count = WORKFLOWS,
) {
  const { handle } = db;
  const services = db.built.modules;
  await services.roles.seedDefaults();
  await services.users.ensureFirstAdmin('admin', 'bench-pass-123', () => 'unused');
  const admin = await authUser(handle, 'admin');
  const testerRole = (await services.roles.list(1, 100)).rows.find((r) => r.roleLevel === 20);
  if (!testerRole) throw new Error('no role of level 20');
  await services.users.save(
    { username: 'viewer', password: sha256Hex('viewer-pass-123'), roleId: testerRole.roleId, phone: null },
    { userId: admin.userId, sessionToken: null },
  );
  const viewer = await authUser(handle, 'viewer');
  const { appId } = await services.appDetail.save(admin, {
    appName: '星际远征',
    appType: 'unity',
    password: '135790',
    path: 'bench-game',
    description: '',
    distributeUsers: [{ userId: viewer.userId, permit: 'view' }],
  });
  const workflowIds: number[] = [];
  for (let rank = 0; rank < count; rank += 1) {
    const w = workflows(rank);
    const body = {
      appId,
      tabName: w.tabName,
      contentType: 'default' as const,
      repoType: 'git' as const,
      repoPath: w.repoPath,
      defaultBranch: w.defaultBranch ?? 'main,develop,release/2.4',
      committers: w.committers,
      autoPush: false,
    };
    workflowIds.push((await services.workflows.create(admin, body)).id);
  }
  return { admin, viewer, appId, workflowIds };
}

/** A database holding `rows` generated update items over 200 workflows; `log` hears the load's progress. */
export async function buildDataset(
  dialect: DialectName,
  dir: string,
  rows: number,
  log: (line: string) => void,
): Promise<BenchDb> {
  const label = `${dialect === 'sqlite' ? 'sqlite' : 'pg'}_${rows}`;
  const db = await openBenchDb(dialect, dir, label);
  try {
    const people = committers();
    // The filtered workflows keep the five most prolific committers.
    const kept = people.slice(0, FILTER_SIZE).map((p) => p.name);
    const filters = new Map<number, Set<string>>();
    const seeded = await seedApp(db, (rank) => {
      if (FILTERED_WORKFLOW(rank)) filters.set(rank, new Set(kept));
      return {
        tabName: `仓库${rank + 1}`,
        repoPath: `https://git.corp.example/game/repo-${rank + 1}.git`,
        committers: FILTERED_WORKFLOW(rank) ? kept : [],
      };
    });
    const layout: Layout = { rows, workflowIds: seeded.workflowIds, appId: seeded.appId };
    let reported = 0;
    const ms = await loadRows(db.handle.db, layout, people, filters, (done) => {
      if (done - reported >= rows / 10 || done === rows) {
        reported = done;
        log(`    ${label}: ${done.toLocaleString('en')} rows`);
      }
    });
    const analyzeStart = performance.now();
    // PostgreSQL's autovacuum vacuums and analyses a freshly loaded table within minutes (statistics, and the
    // visibility map that index-only scans need); this does it now. SQLite gets no ANALYZE: the server never runs
    // one, so its planner works without statistics in production too.
    if (dialect === 'postgres') await sql`vacuum analyze`.execute(db.handle.db);
    log(
      `    ${label}: loaded in ${(ms / 1000).toFixed(1)} s (${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s)${dialect === 'postgres' ? `, vacuum analyze ${((performance.now() - analyzeStart) / 1000).toFixed(1)} s` : ''}`,
    );
    return { ...db, admin: seeded.admin, viewer: seeded.viewer, layout };
  } catch (error) {
    await db.close();
    throw error;
  }
}
