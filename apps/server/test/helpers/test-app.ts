import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import {
  dropPostgresSchema,
  migrateToLatest,
  openDatabase,
  type DatabaseHandle,
  type DialectName,
} from '../../src/db/database.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import type { TrustProxy } from '../../src/http/trust-proxy.ts';
import type { UploadQuota } from '../../src/modules/uploads/uploads.service.ts';
import type { SmsProvider } from '../../src/sms/sms-provider.ts';
import type { ConfiguredBlobStore } from '../../src/storage/create-blob-store.ts';
import { createLocalBlobStore } from '../../src/storage/local-blob-store.ts';
import { createUrlSigner } from '../../src/storage/url-signer.ts';
import { TEST_POSTGRES_URL } from './dialects.ts';
import { copyMigratedSqlite, createMigratedPostgresSchema } from './migrated-template.ts';
import type { LarkConfig } from '../../src/integrations/lark/lark-client.ts';
import type { LarkEventKeys } from '../../src/integrations/lark/lark-event-envelope.ts';
import type { WecomConfig } from '../../src/integrations/wecom/wecom-client.ts';
import type { RepoTimeouts } from '../../src/integrations/repo-access/repo-access-error.ts';
import type { InspectPoolOptions } from '@release/inspect/worker/inspect-pool.ts';

export const TEST_SECRET = 'test-secret-'.padEnd(40, 'x');
export const ADMIN = { username: 'admin', password: 'admin-pass-123' };

/** Where a test server's clock starts (fixtures dated relative to it do not drift with the wall clock). */
export const TEST_CLOCK_START = Date.UTC(2026, 10, 22, 8, 0, 0);

/** A clock the test moves by hand. */
export function createTestClock(start = TEST_CLOCK_START) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}
export type TestClock = ReturnType<typeof createTestClock>;

export interface ApiResponse<T = unknown> {
  status: number;
  body: { code: number; msg: string; data: T; total?: number; extraInfo?: unknown };
}

export interface TestServer {
  url: string;
  dialect: DialectName;
  db: DatabaseHandle['db'];
  built: BuiltApp;
  clock: TestClock;
  /** The server's file store (a test may take a file away, as a store losing it would). */
  blobs: ConfiguredBlobStore;
  /** The SQLite database file (undefined on PostgreSQL), and the PostgreSQL schema. */
  sqliteFile?: string;
  schema: string;
  /** Another connection to the server's database, as another process has: it sees only what was committed. */
  openAnotherConnection(): Promise<DatabaseHandle>;
  request<T = unknown>(
    method: string,
    urlPath: string,
    options?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  login(username: string, password: string, phoneCode?: string): Promise<string>;
  adminToken(): Promise<string>;
  /** Creates a user through the API with the role of that level; returns its id and token. */
  createUser(options: {
    username: string;
    password?: string;
    roleLevel?: number;
    phone?: string | null;
  }): Promise<{ userId: number; token: string }>;
  /**
   * Creates an app through the API as the admin (native, install password 135790 unless given), which `edit` may edit
   * and `view` see; returns its id.
   */
  createApp(options: {
    appName: string;
    path: string;
    appType?: string;
    password?: string;
    edit?: Array<{ userId: number }>;
    view?: Array<{ userId: number }>;
  }): Promise<number>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  sms?: SmsProvider;
  webDistDir?: string;
  blobs?: (clock: TestClock) => ConfiguredBlobStore;
  publicUrl?: string;
  downloadBaseUrl?: string;
  /** Our Lark / WeCom apps, pointed at the loopback fakes of tools/fakes. */
  lark?: LarkConfig;
  wecom?: WecomConfig;
  /** Lark event subscription keys (the event endpoint is off without them) and the document host. */
  larkEvents?: LarkEventKeys;
  larkDocsBaseUrl?: string;
  /** The App Store Connect API: the Apple fake of tools/fakes. */
  appleApiBaseUrl?: string;
  /** How long `/api/zsign` waits before answering with the job to poll. */
  zsignWaitMs?: number;
  /** Off: `/api/zsign` only queues the job, and the test runs the queue itself. */
  zsignRunOnRequest?: boolean;
  /** Where re-signing writes its working copies. */
  zsignWorkDir?: string;
  /** MAX_PACKAGE_MB in bytes (8 GiB unless a test wants a small one). */
  maxPackageBytes?: number;
  /** ALLOW_FILE_REPOSITORIES (on unless a test switches it off, as the default server has it). */
  allowFileRemotes?: boolean;
  /** UPLOAD_QUOTA_FILES / UPLOAD_QUOTA_MB (the defaults otherwise). */
  uploadQuota?: UploadQuota;
  /** The server key, found as main.ts finds it (TEST_SECRET otherwise); runs on the migrated database before the app is built. */
  serverKeys?: (db: DatabaseHandle['db']) => Promise<{ current: string; previous: string[] }>;
  /** TRUST_PROXY as config.ts reads it (off by default, as the default server has it). */
  trustProxy?: TrustProxy;
  /** REPO_*_TIMEOUT_SEC: connect, idle and command limits of git and svn against a remote. */
  repoTimeouts?: RepoTimeouts;
  /** Where the server listens (127.0.0.1 unless a test needs all interfaces, 0.0.0.0); `url` is on 127.0.0.1 either way. */
  host?: string;

  /** The package inspection workers (INSPECT_*); DEFAULT_INSPECT_POOL otherwise. */
  inspection?: InspectPoolOptions;
  /** SYNC_INTERVAL_SEC in ms: the repository poll schedule (none unless a test wants one). */
  pollIntervalMs?: number;
  /** METRICS_TOKEN (none: /metrics answers loopback only). */
  metricsToken?: string;
}

/** TestServer's `request` against any base URL (a server in this process or another): JSON in, JSON envelope out. */
export function requestAt(url: string): TestServer['request'] {
  return async (method, urlPath, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.token = opts.token;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const response = await fetch(`${url}${urlPath}`, { method, headers, body });
    const text = await response.text();
    let parsed: ApiResponse['body'];
    try {
      parsed = JSON.parse(text) as ApiResponse['body'];
    } catch {
      throw new Error(`${method} ${urlPath} answered non-JSON (${response.status}): ${text.slice(0, 200)}`);
    }
    return { status: response.status, body: parsed } as never;
  };
}

export async function startTestServer(dialect: DialectName, options: TestServerOptions = {}): Promise<TestServer> {
  const suffix = randomBytes(6).toString('hex');
  const schema = `t_${suffix}`;
  const tmpDir = dialect === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'release-test-')) : undefined;
  if (tmpDir) await copyMigratedSqlite(path.join(tmpDir, 'release.db'));
  else await createMigratedPostgresSchema(schema);
  const handle = await openDatabase({
    url: dialect === 'postgres' ? TEST_POSTGRES_URL : undefined,
    schema,
    sqliteFile: tmpDir ? path.join(tmpDir, 'release.db') : ':memory:',
  });
  await migrateToLatest(handle);
  const keys = options.serverKeys ? await options.serverKeys(handle.db) : { current: TEST_SECRET, previous: [] };
  const clock = createTestClock();
  // Every test server stores files on local disk unless the test brings its own store.
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-test-blobs-'));
  const blobs = options.blobs
    ? options.blobs(clock)
    : createLocalBlobStore({ root: path.join(blobDir, 'blobs'), signer: createUrlSigner(keys.current), clock });
  const built = await buildApp({
    db: handle.db,
    secret: keys.current,
    previousSecrets: keys.previous,
    publicUrl: options.publicUrl,
    downloadBaseUrl: options.downloadBaseUrl,
    clock,
    sms: options.sms,
    webDistDir: options.webDistDir,
    lark: options.lark,
    wecom: options.wecom,
    larkEvents: options.larkEvents,
    larkDocsBaseUrl: options.larkDocsBaseUrl,
    appleApiBaseUrl: options.appleApiBaseUrl,
    zsignWaitMs: options.zsignWaitMs,
    zsignRunOnRequest: options.zsignRunOnRequest,
    zsignWorkDir: options.zsignWorkDir,
    allowFileRemotes: options.allowFileRemotes,
    trustProxy: options.trustProxy,
    repoTimeouts: options.repoTimeouts,
    uploadQuota: options.uploadQuota,
    maxPackageBytes: options.maxPackageBytes,
    blobs,
    inspection: options.inspection,
    pollIntervalMs: options.pollIntervalMs,
    metricsToken: options.metricsToken,
  });
  await built.modules.roles.seedDefaults();
  await built.modules.users.ensureFirstAdmin(ADMIN.username, ADMIN.password, () => 'unused');
  await built.app.listen({ host: options.host ?? '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;

  const server: TestServer = {
    url,
    dialect,
    db: handle.db,
    built,
    clock,
    blobs,
    sqliteFile: tmpDir ? path.join(tmpDir, 'release.db') : undefined,
    schema,
    openAnotherConnection: () =>
      openDatabase({
        url: dialect === 'postgres' ? TEST_POSTGRES_URL : undefined,
        schema,
        sqliteFile: tmpDir ? path.join(tmpDir, 'release.db') : ':memory:',
      }),
    request: requestAt(url),
    async login(username, password, phoneCode) {
      const res = await server.request<{ token: string }>('POST', '/api/user/login', {
        body: { username, password: sha256Hex(password), phoneCode },
      });
      if (res.body.code !== 200) throw new Error(`login ${username} failed: ${res.body.msg}`);
      return res.body.data.token;
    },
    async adminToken() {
      return server.login(ADMIN.username, ADMIN.password);
    },
    async createUser({ username, password = 'user-pass-123', roleLevel = 30, phone = null }) {
      const admin = await server.adminToken();
      const roles = await server.request<Array<{ roleId: number; roleLevel: number }>>(
        'GET',
        '/api/roles?pageNo=1&pageSize=100',
        { token: admin },
      );
      const role = roles.body.data.find((r) => r.roleLevel === roleLevel);
      if (!role) throw new Error(`no role of level ${roleLevel}`);
      const created = await server.request<{ userId: number }>('POST', '/api/user', {
        token: admin,
        body: { username, password: sha256Hex(password), roleId: role.roleId, phone },
      });
      if (created.body.code !== 200) throw new Error(`create user failed: ${created.body.msg}`);
      const token = phone ? '' : await server.login(username, password);
      return { userId: created.body.data.userId, token };
    },
    async createApp({ appName, path, appType = 'native', password = '135790', edit = [], view = [] }) {
      const distributeUsers = [
        ...edit.map((user) => ({ userId: user.userId, permit: 'edit' })),
        ...view.map((user) => ({ userId: user.userId, permit: 'view' })),
      ];
      const created = await server.request<{ appId: number }>('POST', '/api/app', {
        token: await server.adminToken(),
        body: { appName, appType, password, path, distributeUsers },
      });
      if (created.body.code !== 200) throw new Error(`create app failed: ${created.body.msg}`);
      return created.body.data.appId;
    },
    async close() {
      await built.app.close();
      await handle.destroy();
      if (dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
      if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
      fs.rmSync(blobDir, { recursive: true, force: true });
    },
  };
  return server;
}
