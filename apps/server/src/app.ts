import Fastify, { type FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { type AppDeps, type Core, createCore } from './core.ts';
import { registerAuth, type RouteAccess } from './http/auth-plugin.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { registerExpectContinue } from './http/expect-continue.ts';
import { registerNulGuard } from './http/nul-guard.ts';
import { fastifyTrustProxy, warnOfUntrustedProxy } from './http/trust-proxy.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerCompression } from './http/compression.ts';
import { registerWebApp } from './http/web-static.ts';
import { openApiInfo, openApiSecurity, openApiTags, openApiTransform } from './http/openapi.ts';
import { RequestLog } from './http/request-log.ts';
import { registerRequestMetrics } from './http/request-metrics.ts';
import * as apiTokens from './modules/api-tokens/api-tokens.module.ts';
import * as appleAccounts from './modules/apple-accounts/apple-accounts.module.ts';
import * as apps from './modules/apps/apps.module.ts';
import * as auth from './modules/auth/auth.module.ts';
import * as blobs from './modules/blobs/blobs.module.ts';
import * as categories from './modules/categories/categories.module.ts';
import * as changes from './modules/changes/changes.module.ts';
import * as certificates from './modules/certificates/certificates.module.ts';
import * as cliDownload from './modules/cli-download/cli-download.module.ts';
import * as commitLogs from './modules/commit-logs/commit-logs.module.ts';
import * as deviceEnroll from './modules/device-enroll/device-enroll.module.ts';
import * as devices from './modules/devices/devices.module.ts';
import * as health from './modules/health/health.module.ts';
import * as install from './modules/install/install.module.ts';
import * as larkDocs from './modules/lark-docs/lark-docs.module.ts';
import * as packageChanges from './modules/package-changes/package-changes.module.ts';
import * as live from './modules/live/live.module.ts';
import * as media from './modules/media/media.module.ts';
import * as messaging from './modules/messaging/messaging.module.ts';
import * as metrics from './modules/metrics/metrics.module.ts';
import * as notifications from './modules/notifications/notifications.module.ts';
import * as publish from './modules/publish/publish.module.ts';
import * as roles from './modules/roles/roles.module.ts';
import * as settings from './modules/settings/settings.module.ts';
import * as sso from './modules/sso/sso.module.ts';
import * as sync from './modules/sync/sync.module.ts';
import * as system from './modules/system/system.module.ts';
import * as tasks from './modules/tasks/tasks.module.ts';
import * as tasksSync from './modules/tasks-sync/tasks-sync.module.ts';
import * as uploads from './modules/uploads/uploads.module.ts';
import * as users from './modules/users/users.module.ts';
import * as versions from './modules/versions/versions.module.ts';
import * as retention from './modules/retention/retention.module.ts';
import * as storageUsage from './modules/storage-usage/storage-usage.module.ts';
import * as workflows from './modules/workflows/workflows.module.ts';
import * as zsign from './modules/zsign/zsign.module.ts';
import { registerReadOnlyGuard } from './modules/settings/read-only.ts';

export type { AppDeps } from './core.ts';
export { DEFAULT_LARK_DOCS_BASE_URL } from './core.ts';

export interface BuiltApp {
  app: FastifyInstance;
  /** The shared core every module was registered with (jobs, scheduler, shared services). */
  core: Core;
  /** What a few modules answer for main.ts and tests (seeding roles and the first admin, version removal). */
  modules: Awaited<ReturnType<typeof registerModules>>;
  /** Every /api route with its declared access, for the authorization test. */
  routes: RouteAccess[];
}

/**
 * Every feature module, each `register(app, core)` in modules/<name>/<name>.module.ts, in the order their routes
 * were always registered. A new module is one line here.
 */
async function registerModules(app: FastifyInstance, core: Core) {
  await auth.register(app, core);
  await sso.register(app, core);
  const usersService = await users.register(app, core);
  const rolesService = await roles.register(app, core);
  await categories.register(app, core);
  const appsParts = await apps.register(app, core);
  await notifications.register(app, core);
  await live.register(app, core);
  await settings.register(app, core);
  await system.register(app, core);
  await media.register(app, core);
  await uploads.register(app, core);
  await publish.register(app, core);
  await install.register(app, core);
  const versionsParts = await versions.register(app, core);
  const retentionService = await retention.register(app, core, versionsParts.removal);
  await storageUsage.register(app, core);
  const workflowsService = await workflows.register(app, core);
  await commitLogs.register(app, core);
  await changes.register(app, core);
  await packageChanges.register(app, core);
  await sync.register(app, core);
  await apiTokens.register(app, core);
  await certificates.register(app, core);
  await devices.register(app, core);
  await zsign.register(app, core);
  await appleAccounts.register(app, core);
  await deviceEnroll.register(app, core);
  await messaging.register(app, core);
  await larkDocs.register(app, core);
  await tasks.register(app, core);
  await tasksSync.register(app, core);
  await blobs.register(app, core);
  await health.register(app, core);
  await metrics.register(app, core);
  await cliDownload.register(app, core);
  return {
    users: usersService,
    roles: rolesService,
    appDetail: appsParts.detail,
    versionRemoval: versionsParts.removal,
    retention: retentionService,
    workflows: workflowsService,
  };
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
  registerExpectContinue(app);
  registerReadOnlyGuard(app, deps.db);
  warnOfUntrustedProxy(app, deps.trustProxy ?? false);
  await registerCompression(app);

  const core = createCore(deps, app.log);
  registerRequestMetrics(app, core.metrics);
  // The job runner and the scheduler are started by main.ts (tests drive them with runDue); closing the app stops them.
  app.addHook('onClose', async () => {
    await core.scheduler.stop();
    await core.jobs.stop();
    await core.shared.inspector.close();
    await core.live.close();
  });
  const routes = registerAuth(app, core.shared.sessions);

  await app.register(fastifySwagger, {
    openapi: {
      info: openApiInfo,
      tags: openApiTags,
      ...openApiSecurity,
    },
    transform: openApiTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const modules = await registerModules(app, core);
  await registerWebApp(app, deps.webDistDir, { installBoot: core.shared.install.boot });
  return { app, core, modules, routes };
}
