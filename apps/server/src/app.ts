import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import { registerAuth, type RouteAccess } from './http/auth-plugin.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { registerNulGuard } from './http/nul-guard.ts';
import { fastifyTrustProxy, warnOfUntrustedProxy, type TrustProxy } from './http/trust-proxy.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerCompression } from './http/compression.ts';
import { registerWebApp } from './http/web-static.ts';
import { openApiInfo, openApiSecurity, openApiTags, openApiTransform } from './http/openapi.ts';
import { RequestLog } from './http/request-log.ts';
import type { Clock } from './lib/clock.ts';
import { systemClock } from './lib/clock.ts';
import { createServices, type Services } from './services.ts';
import type { SmsProvider } from './sms/sms-provider.ts';
import type { ConfiguredBlobStore } from './storage/create-blob-store.ts';
import { localBlobRoutes } from './modules/blobs/blobs.routes.ts';
import { createLogSmsProvider } from './sms/sms-provider.ts';
import { appsRoutes } from './modules/apps/apps.routes.ts';
import { appDetailRoutes } from './modules/apps/app-detail.routes.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import type { UploadQuota } from './modules/uploads/uploads.service.ts';
import { directUploadRoutes } from './modules/uploads/direct-upload.routes.ts';
import { createDirectUploadService } from './modules/uploads/direct-upload.service.ts';
import { createUploadSessionsRepository } from './modules/uploads/upload-sessions.repository.ts';
import { createAppsRepository } from './modules/apps/apps.repository.ts';
import { createVersionsRepository } from './modules/versions/versions.repository.ts';
import { versionsRoutes } from './modules/versions/versions.routes.ts';
import { installRoutes } from './modules/install/install.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { workflowsRoutes } from './modules/workflows/workflows.routes.ts';
import { commitLogsRoutes } from './modules/commit-logs/commit-logs.routes.ts';
import { workflowPushRoutes } from './modules/sync/push.routes.ts';
import { syncRoutes } from './modules/sync/sync.routes.ts';
import { webhookRoutes } from './modules/sync/webhook.routes.ts';
import os from 'node:os';
import path from 'node:path';
import { createPublicUrlCheckService } from './modules/system/public-url-check.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { categoriesRoutes } from './modules/categories/categories.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { rolesRoutes } from './modules/roles/roles.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { repoHostsRoutes } from './modules/settings/repo-hosts.routes.ts';
import type { RepoTimeouts } from './integrations/repo-access/repo-access-error.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.ts';
import { versionLookupRoutes } from './modules/versions/version-lookup.routes.ts';
import { ssoRoutes } from './modules/sso/sso.routes.ts';
import { certificatesRoutes } from './modules/certificates/certificates.routes.ts';
import { devicesRoutes } from './modules/devices/devices.routes.ts';
import { registerZsign } from './modules/zsign/zsign.module.ts';
import { registerAppleAccounts } from './modules/apple-accounts/apple-accounts.module.ts';
import { DEFAULT_APPLE_API_BASE_URL } from './integrations/apple/asc-client.ts';
import { registerDeviceEnroll } from './modules/device-enroll/device-enroll.module.ts';
import type { ProfileSigner } from './modules/device-enroll/mobileconfig.ts';
import type { LarkConfig } from './integrations/lark/lark-client.ts';
import type { WecomConfig } from './integrations/wecom/wecom-client.ts';
import { DEFAULT_ROBOT_HOSTS, type RobotHosts } from './integrations/robot-destination.ts';
import { messagingRoutes } from './modules/messaging/messaging.routes.ts';
import type { LarkEventKeys } from './integrations/lark/lark-event-envelope.ts';
import { registerLarkDocs } from './modules/lark-docs/lark-docs.module.ts';
import { registerTasks } from './modules/tasks/tasks.module.ts';
import { createTasksSync, registerTasksSync } from './modules/tasks-sync/tasks-sync.module.ts';
import { jobSchedulesRoutes } from './modules/system/job-schedules.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createHealthService } from './modules/health/health.service.ts';
import type { InspectPoolOptions } from '@release/inspect/worker/inspect-pool.ts';
import { cachedCliBundle, defaultCliBundleSource, type CliBundleSource } from './modules/cli-download/cli-bundle.ts';
import { cliDownloadRoutes } from './modules/cli-download/cli-download.routes.ts';

/** Where a Lark document opens when LARK_DOCS_BASE_URL is not set (Feishu sends signed-in users on to their tenant). */
export const DEFAULT_LARK_DOCS_BASE_URL = 'https://www.feishu.cn';

/** MAX_PACKAGE_MB's default, 8 GiB. */
const DEFAULT_MAX_PACKAGE_BYTES = 8 * 1024 ** 3;

export interface AppDeps {
  db: Kysely<Database>;
  /** Where packages and files are stored. */
  blobs: ConfiguredBlobStore;
  /** Largest package accepted (bytes). */
  maxPackageBytes?: number;
  /** Unfinished uploads one user may hold (default 50 files, 20 GiB). */
  uploadQuota?: UploadQuota;
  /** MEDIA_GRACE_HOURS in ms (24 h unless a test wants another). */
  mediaGraceMs?: number;
  /** Where git mirrors live; a temporary folder when not given. */
  mirrorsDir?: string;
  /** Whether file:// repositories may be polled. */
  allowFileRemotes?: boolean;
  /** Connect, idle and command limits of git and svn against a remote (REPO_*_TIMEOUT_SEC). */
  repoTimeouts?: RepoTimeouts;
  clock?: Clock;
  sms?: SmsProvider;
  /** Our Lark app; Lark sign-in and messages are off without it. */
  lark?: LarkConfig | null;
  /** Our WeCom app for sign-in. */
  wecom?: WecomConfig | null;
  /** Lark event subscription keys (LARK_VERIFICATION_TOKEN, LARK_ENCRYPT_KEY); /api/lark/event is off without them. */
  larkEvents?: LarkEventKeys | null;
  /** LARK_DOCS_BASE_URL: the tenant's document host, for links that open a document in Lark. */
  larkDocsBaseUrl?: string;
  /** APPLE_API_BASE_URL: the App Store Connect API (the fake in tests). */
  appleApiBaseUrl?: string;
  /** Server secret for sealed values and signed URLs. */
  secret: string;
  /** Keys a rotation is moving off: they still open sealed values (never sign). */
  previousSecrets?: string[];
  /** Where robot webhooks may point; by default the Lark/WeCom hosts configured above (or the real ones). */
  robotHosts?: RobotHosts;
  /** PUBLIC_URL: the base of every absolute URL handed out. */
  publicUrl?: string;
  /** DOWNLOAD_BASE_URL: a CDN or download host for package and media links. */
  downloadBaseUrl?: string;
  /** MOBILECONFIG_SIGN_CERT/KEY: signs the device registration profile; unsigned without it. */
  mobileconfigSigner?: ProfileSigner | null;
  webDistDir?: string;
  /** How long `/api/zsign` waits for the re-signing before answering with the job to poll (default 50 s). */
  zsignWaitMs?: number;
  /** Whether `/api/zsign` runs the job queue in this process at once (default true; off, the started runners take it). */
  zsignRunOnRequest?: boolean;
  /** Where re-signing writes its working copies (the system temp folder by default). */
  zsignWorkDir?: string;
  logger?: FastifyServerOptions['logger'];
  trustProxy?: TrustProxy;
  /** Package inspection worker threads (INSPECT_WORKERS, INSPECT_TIMEOUT_SEC, INSPECT_MEMORY_MB). */
  inspection?: InspectPoolOptions;
  /** The bytes of GET /cli/release-cli.mjs (default: dist/release-cli.mjs beside the bundle, or built from the sources). */
  cliBundle?: CliBundleSource;
  /** SYNC_INTERVAL_SEC in ms: how often git and svn workflows are polled; no polling schedule without it. */
  pollIntervalMs?: number;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  /** Every /api route with its declared access, for the authorization test. */
  routes: RouteAccess[];
}

/** Builds the Fastify app without listening; tests use it on a random port. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const app = Fastify({
    logger: deps.logger ?? false,
    // One debug line per request, not two info lines each (http/request-log.ts).
    logController: new RequestLog(),
    trustProxy: fastifyTrustProxy(deps.trustProxy ?? false),
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 500 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerSecurityHeaders(app, {
    publicUrl: deps.publicUrl,
    downloadBaseUrl: deps.downloadBaseUrl,
    storageOrigin: deps.blobs.kind === 's3' ? deps.blobs.origin : null,
  });
  registerNulGuard(app);
  warnOfUntrustedProxy(app, deps.trustProxy ?? false);
  await registerCompression(app);

  const services = createServices({
    db: deps.db,
    blobs: deps.blobs,
    maxPackageBytes: deps.maxPackageBytes ?? DEFAULT_MAX_PACKAGE_BYTES,
    uploadQuota: deps.uploadQuota,
    mediaGraceMs: deps.mediaGraceMs,
    mirrorsDir: deps.mirrorsDir ?? path.join(os.tmpdir(), 'release-mirrors'),
    allowFileRemotes: deps.allowFileRemotes ?? true,
    repoTimeouts: deps.repoTimeouts,
    clock: deps.clock ?? systemClock,
    sms: deps.sms ?? createLogSmsProvider(app.log),
    lark: deps.lark ?? null,
    wecom: deps.wecom ?? null,
    secret: deps.secret,
    previousSecrets: deps.previousSecrets,
    robotHosts: deps.robotHosts ?? {
      larkOpenBaseUrl: deps.lark?.openBaseUrl ?? DEFAULT_ROBOT_HOSTS.larkOpenBaseUrl,
      wecomBaseUrl: deps.wecom?.baseUrl ?? DEFAULT_ROBOT_HOSTS.wecomBaseUrl,
    },
    publicUrl: deps.publicUrl ?? null,
    logger: app.log,
    inspection: deps.inspection,
    pollIntervalMs: deps.pollIntervalMs,
  });
  // The job runner and the scheduler are started by main.ts (tests drive them with runDue); closing the app stops them.
  app.addHook('onClose', async () => {
    await services.scheduler.stop();
    await services.jobs.stop();
    await services.inspector.close();
  });
  const routes = registerAuth(app, services.sessions);

  await app.register(fastifySwagger, {
    openapi: {
      info: openApiInfo,
      tags: openApiTags,
      ...openApiSecurity,
    },
    transform: openApiTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(authRoutes(services.auth));
  await app.register(ssoRoutes({ sso: services.sso, publicUrl: deps.publicUrl }));
  await app.register(usersRoutes(services.users));
  await app.register(rolesRoutes(services.roles));
  await app.register(categoriesRoutes(services.categories));
  await app.register(appsRoutes(services.apps));
  await app.register(
    appDetailRoutes({ detail: services.appDetail, members: services.appMembers, publicUrl: deps.publicUrl }),
  );
  await app.register(notificationsRoutes(services.notifications));
  await app.register(settingsRoutes(services.settings));
  await app.register(repoHostsRoutes(services.repoHosts));
  await app.register(systemRoutes(createPublicUrlCheckService({ publicUrl: deps.publicUrl, secret: deps.secret })));
  await app.register(jobSchedulesRoutes(services.scheduler));
  await app.register(
    mediaRoutes({
      media: services.media,
      links: services.mediaLinks,
      uploads: services.uploads,
      blobs: deps.blobs,
      publicUrl: deps.publicUrl,
    }),
  );
  const links = {
    blobs: deps.blobs,
    publicUrl: deps.publicUrl,
    downloadBaseUrl: deps.downloadBaseUrl,
    mediaLinks: services.mediaLinks,
  };
  await app.register(uploadsRoutes({ uploads: services.uploads, registration: services.registration, ...links }));
  const maxPackageBytes = deps.maxPackageBytes ?? DEFAULT_MAX_PACKAGE_BYTES;
  const direct = createDirectUploadService({
    uploads: services.uploads,
    sessions: createUploadSessionsRepository(deps.db),
    apps: createAppsRepository(deps.db),
    versions: createVersionsRepository(deps.db),
    registration: services.registration,
    policy: services.appsPolicy,
    blobs: deps.blobs,
    clock: deps.clock ?? systemClock,
    maxPackageBytes,
  });
  await app.register(directUploadRoutes({ direct, maxPackageBytes, ...links }));
  await app.register(installRoutes({ install: services.install, installAccess: services.installAccess, ...links }));
  await app.register(versionsRoutes({ versions: services.versions, ...links }));
  await app.register(workflowsRoutes({ workflows: services.workflows, publicUrl: deps.publicUrl }));
  await app.register(commitLogsRoutes({ logs: services.commitLogs, ...links }));
  await app.register(syncRoutes(services.inbound));
  await app.register(webhookRoutes(services.inbound));
  await app.register(workflowPushRoutes(services.inbound));
  await app.register(versionLookupRoutes({ lookup: services.versionLookup, ...links }));
  await app.register(apiTokensRoutes(services.apiTokens));
  await app.register(certificatesRoutes(services.certificates));
  await app.register(devicesRoutes(services.devices));
  const zsign = await registerZsign(app, {
    db: deps.db,
    clock: deps.clock ?? systemClock,
    jobs: services.jobs,
    policy: services.appsPolicy,
    certificates: services.certificates,
    registration: services.registration,
    waitMs: deps.zsignWaitMs,
    runOnRequest: deps.zsignRunOnRequest,
    workDir: deps.zsignWorkDir,
    logger: app.log,
    ...links,
  });
  await registerAppleAccounts(app, {
    db: deps.db,
    box: services.box,
    clock: deps.clock ?? systemClock,
    baseUrl: deps.appleApiBaseUrl ?? DEFAULT_APPLE_API_BASE_URL,
    zsign,
    ...links,
  });
  await registerDeviceEnroll(app, {
    db: deps.db,
    clock: deps.clock ?? systemClock,
    secret: deps.secret,
    publicUrl: deps.publicUrl,
    isInstallTokenValid: services.install.isPageTokenValid,
    profileSigner: deps.mobileconfigSigner ?? null,
  });
  await app.register(
    messagingRoutes({ messaging: services.messaging, log: services.deliveryLog, publicUrl: deps.publicUrl }),
  );
  // The Lark sync of tasks and bugs (when a Lark app is configured): the tracker calls its hooks after each change.
  const tasksSync = createTasksSync({
    db: deps.db,
    clock: deps.clock ?? systemClock,
    lark: services.larkClient,
    jobs: services.jobs,
    scheduler: services.scheduler,
    policy: services.appsPolicy,
    blobs: deps.blobs,
    log: (message) => app.log.warn(message),
  });
  const larkDocs = await registerLarkDocs(app, {
    db: deps.db,
    clock: deps.clock ?? systemClock,
    lark: deps.lark ?? null,
    eventKeys: deps.larkEvents ?? null,
    docsBaseUrl: deps.larkDocsBaseUrl ?? DEFAULT_LARK_DOCS_BASE_URL,
    policy: services.appsPolicy,
    acceptEvent: services.inbound.larkDocumentEvent,
    workflows: services.workflowsRepo,
    // New items must never fail because autoPush could not be queued (as for every other source).
    onNewItems: (targets) =>
      services.autoPush.trigger(targets).catch((err: unknown) => app.log.error({ err }, 'queueing autoPush failed')),
    // A bug table edited in Lark is pulled now; the schedule still comes if this cannot be queued.
    onBaseChanged: tasksSync
      ? (appToken, eventId) =>
          tasksSync
            .baseChanged(appToken, eventId)
            .catch((err: unknown) => app.log.error({ err }, 'queueing a Lark pull failed'))
      : undefined,
  });
  // Lark document events come in through the inbound service; lark-docs reads them into items.
  services.inbound.readLarkDocumentsWith(larkDocs.events);
  await registerTasks(app, {
    db: deps.db,
    clock: deps.clock ?? systemClock,
    policy: services.appsPolicy,
    uploads: services.uploads,
    larkEnabled: Boolean(deps.lark),
    ...links,
    fieldOptions: tasksSync?.fieldOptions,
    // A change is saved whatever happens to its push; a push that could not be queued is retried by the next pull.
    onChange: tasksSync
      ? (record, change) =>
          tasksSync
            .onChange(record, change)
            .catch((err: unknown) => app.log.error({ err }, 'queueing a Lark push failed'))
      : undefined,
  });
  await registerTasksSync(app, tasksSync);
  if (deps.blobs.kind === 'local') await app.register(localBlobRoutes(deps.blobs));
  await app.register(healthRoutes(createHealthService({ db: deps.db, blobs: deps.blobs })));

  await app.register(cliDownloadRoutes(cachedCliBundle(deps.cliBundle ?? defaultCliBundleSource())));

  await registerWebApp(app, deps.webDistDir, { installBoot: services.install.boot });
  return { app, services, routes };
}
