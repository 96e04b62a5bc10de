import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { buildApp } from './app.ts';
import { addressesOf, startupAddressNote } from './http/public-url.ts';
import { randomToken } from './lib/crypto.ts';
import { createWebhookSmsProvider } from './sms/sms-provider.ts';
import { systemClock } from './lib/clock.ts';
import { createSettingsRepository } from './modules/settings/settings.repository.ts';
import { createSealedValuesRepository } from './modules/settings/sealed-values.repository.ts';
import { resolveServerKeys } from './modules/settings/server-key.ts';
import { createBlobStore } from './storage/create-blob-store.ts';
import { createUrlSigner } from './storage/url-signer.ts';
import { loadProfileSigner } from './modules/device-enroll/mobileconfig.ts';
import { faultOf } from './http/error-handler.ts';
import { mapStackTracesLazily } from './lib/stack-traces.ts';

mapStackTracesLazily(import.meta.url);

async function main() {
  const config = loadConfig();
  // Read before anything else starts, so a bad signing pair stops the server with its reason.
  const mobileconfigSigner =
    config.MOBILECONFIG_SIGN_CERT && config.MOBILECONFIG_SIGN_KEY
      ? loadProfileSigner(
          readFileSync(config.MOBILECONFIG_SIGN_CERT, 'utf8'),
          readFileSync(config.MOBILECONFIG_SIGN_KEY, 'utf8'),
        )
      : null;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const handle = await openDatabase({
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    sqliteFile: path.join(config.DATA_DIR, 'release.db'),
    poolSize: config.DATABASE_POOL_SIZE,
    acquireTimeoutMs: config.DATABASE_POOL_WAIT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  await migrateToLatest(handle);
  const keys = await resolveServerKeys({
    config,
    settings: createSettingsRepository(handle.db),
    sealed: createSealedValuesRepository(handle.db),
    clock: systemClock,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const secret = keys.current;
  const blobs = createBlobStore(config, { signer: createUrlSigner(secret), clock: systemClock });

  const { app, core, modules } = await buildApp({
    db: handle.db,
    blobs,
    maxPackageBytes: config.MAX_PACKAGE_MB * 1024 * 1024,
    uploadQuota: { maxFiles: config.UPLOAD_QUOTA_FILES, maxBytes: config.UPLOAD_QUOTA_MB * 1024 * 1024 },
    mediaGraceMs: config.MEDIA_GRACE_HOURS * 60 * 60 * 1000,
    inspection: {
      workers: config.INSPECT_WORKERS,
      timeoutMs: config.INSPECT_TIMEOUT_SEC * 1000,
      maxHeapMb: config.INSPECT_MEMORY_MB,
    },
    mirrorsDir: path.join(config.DATA_DIR, 'mirrors'),
    allowFileRemotes: config.ALLOW_FILE_REPOSITORIES,
    repoTimeouts: {
      connectMs: config.REPO_CONNECT_TIMEOUT_SEC * 1000,
      idleMs: config.REPO_IDLE_TIMEOUT_SEC * 1000,
      commandMs: config.REPO_COMMAND_TIMEOUT_SEC * 1000,
    },
    secret,
    previousSecrets: keys.previous,
    publicUrl: config.PUBLIC_URL,
    downloadBaseUrl: config.DOWNLOAD_BASE_URL,
    sms:
      config.SMS_PROVIDER === 'webhook' && config.SMS_WEBHOOK_URL
        ? createWebhookSmsProvider(config.SMS_WEBHOOK_URL)
        : undefined,
    lark:
      config.LARK_APP_ID && config.LARK_APP_SECRET
        ? {
            appId: config.LARK_APP_ID,
            appSecret: config.LARK_APP_SECRET,
            openBaseUrl: config.LARK_OPEN_BASE_URL,
            accountsBaseUrl: config.LARK_ACCOUNTS_BASE_URL,
            passportBaseUrl: config.LARK_PASSPORT_BASE_URL,
          }
        : null,
    larkEvents:
      config.LARK_VERIFICATION_TOKEN || config.LARK_ENCRYPT_KEY
        ? { verificationToken: config.LARK_VERIFICATION_TOKEN ?? null, encryptKey: config.LARK_ENCRYPT_KEY ?? null }
        : null,
    larkDocsBaseUrl: config.LARK_DOCS_BASE_URL,
    appleApiBaseUrl: config.APPLE_API_BASE_URL,
    wecom:
      config.WECOM_CORP_ID && config.WECOM_AGENT_ID && config.WECOM_SECRET
        ? {
            corpId: config.WECOM_CORP_ID,
            agentId: config.WECOM_AGENT_ID,
            secret: config.WECOM_SECRET,
            baseUrl: config.WECOM_BASE_URL,
            loginBaseUrl: config.WECOM_LOGIN_BASE_URL,
          }
        : null,
    robotHosts: { larkOpenBaseUrl: config.LARK_OPEN_BASE_URL, wecomBaseUrl: config.WECOM_BASE_URL },
    webDistDir: config.WEB_DIST_DIR ?? path.resolve(here, '../../web/dist'),
    trustProxy: config.TRUST_PROXY,
    metricsToken: config.METRICS_TOKEN,
    mobileconfigSigner,
    pollIntervalMs: config.SYNC_INTERVAL_SEC * 1000,
    logger: {
      level: config.LOG_LEVEL,
      ...(config.NODE_ENV === 'development' ? { transport: { target: 'pino-pretty' } } : {}),
    },
  });

  await modules.roles.seedDefaults();
  const admin = await modules.users.ensureFirstAdmin(config.ADMIN_USERNAME, config.ADMIN_PASSWORD, () =>
    randomToken().slice(0, 16),
  );
  if (admin.created && !admin.generatedPassword) {
    app.log.info({ username: config.ADMIN_USERNAME }, 'first admin created from ADMIN_USERNAME / ADMIN_PASSWORD');
  }

  // Background work left without a catch that met the database away or a full disk: logged, the process stays (it
  // serves again when they are back). Anything else unhandled is a bug and still ends the process, as Node does.
  process.on('unhandledRejection', (reason) => {
    if (!faultOf(reason)) throw reason;
    app.log.error({ err: reason }, 'background work failed: the database is away or the disk is full');
  });

  // Pushes and autoPush run as jobs in every process; the first drain also takes over jobs whose process died
  // (their lease ran out), and a delivery found mid-send is reported, never sent twice.
  core.jobs.start();
  // Repository polling, housekeeping and the Lark tasks pull: each due schedule is taken by one process of the cluster.
  core.scheduler.start();

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    // app.close() stops the job runner and the scheduler and waits for the runs in flight.
    await app.close();
    await handle.destroy();
    process.exit(0);
  };
  // Ctrl-C reaches the server twice under `npm start` (from the terminal and forwarded by scripts/start.mjs):
  // the second must not cut the shutdown short.
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void shutdown(signal);
    });
  }

  const address = await app.listen({ host: config.HOST, port: config.PORT });
  // Without PUBLIC_URL, links use the LAN address of the default route (http/public-url.ts): print that one.
  const reach = addressesOf(app);
  const shown = config.PUBLIC_URL ?? reach?.primary ?? address;
  // pino writes behind: let its start-up lines out first, so the lines below end the start-up output.
  await new Promise<void>((resolve) => {
    const log = app.log as { flush?: (done: () => void) => void };
    if (log.flush) log.flush(() => resolve());
    else resolve();
  });
  process.stdout.write(`发布系统 is running at ${shown} (database: ${handle.dialect}, data: ${config.DATA_DIR})\n`);
  if (!config.PUBLIC_URL && reach) process.stdout.write(startupAddressNote(reach));
  if (admin.generatedPassword) {
    // Printed once, on the console only, after the start-up lines so it is the last thing on screen: the operator must keep it.
    process.stdout.write(
      `\n  First admin created: ${config.ADMIN_USERNAME} / ${admin.generatedPassword}\n  (shown only once; change it in 设置 → 用户管理)\n\n`,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
