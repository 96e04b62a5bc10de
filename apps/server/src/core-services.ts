import type { Kysely } from 'kysely';
import { createInspectPool, DEFAULT_INSPECT_POOL } from '@release/inspect/worker/inspect-pool.ts';
import type { CoreBase } from './core.ts';
import type { Database } from './db/schema.ts';
import { createRepoHostGuard } from './integrations/repo-access/repo-host-guard.ts';
import { createApiTokensRepository } from './modules/api-tokens/api-tokens.repository.ts';
import { createApiTokensService } from './modules/api-tokens/api-tokens.service.ts';
import { createAppMembersRepository } from './modules/apps/app-members.repository.ts';
import { createAppsPolicy } from './modules/apps/apps.policy.ts';
import { createAppsRepository } from './modules/apps/apps.repository.ts';
import { createAttemptLimiter } from './modules/auth/attempt-limiter.ts';
import { createLoginGuardRepository } from './modules/auth/login-guard.repository.ts';
import { createSessionRepository } from './modules/auth/session.repository.ts';
import { createSessionService } from './modules/auth/session.service.ts';
import { createCertificatesRepository } from './modules/certificates/certificates.repository.ts';
import { createCertificatesService } from './modules/certificates/certificates.service.ts';
import { createCommitIngestService } from './modules/commit-logs/commit-ingest.service.ts';
import { createCommitLogsRepository } from './modules/commit-logs/commit-logs.repository.ts';
import { createDevicesRepository } from './modules/devices/devices.repository.ts';
import { createInstallAccessRepository } from './modules/install/install-access.repository.ts';
import { createInstallService } from './modules/install/install.service.ts';
import { createLarkDocumentReader } from './modules/lark-docs/lark-docs.module.ts';
import { createMediaFilesRepository } from './modules/media/media-files.repository.ts';
import { createMediaService } from './modules/media/media.service.ts';
import { createMessaging } from './modules/messaging/messaging.module.ts';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { createRepoHostsService } from './modules/settings/repo-hosts.service.ts';
import { createSettingsRepository } from './modules/settings/settings.repository.ts';
import { createSettingsService } from './modules/settings/settings.service.ts';
import { createIdentitiesRepository } from './modules/sso/identities.repository.ts';
import { createInboundService } from './modules/sync/inbound.service.ts';
import { createRepoSyncJob } from './modules/sync/repo-sync.job.ts';
import { createRepoSyncService } from './modules/sync/repo-sync.service.ts';
import { createTasksSync } from './modules/tasks-sync/tasks-sync.module.ts';
import { createTasksRepository } from './modules/tasks/tasks.repository.ts';
import { createUploadSessionsRepository } from './modules/uploads/upload-sessions.repository.ts';
import { createUploadsService } from './modules/uploads/uploads.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { createPackageRegistrationService } from './modules/publish/package-registration.service.ts';
import { createVersionsRepository } from './modules/versions/versions.repository.ts';
import { createWorkflowsRepository } from './modules/workflows/workflows.repository.ts';
import { createRolesRepository } from './modules/roles/roles.repository.ts';
import { createVersionSourcesRepository } from './modules/changes/version-sources.repository.ts';
import { createVersionSourcesService } from './modules/changes/version-sources.service.ts';
import { createVersionChangesService } from './modules/changes/version-changes.service.ts';
import { shortenChanges } from '@release/contract';
import { createZsign } from './modules/zsign/zsign.module.ts';
import { createUrlSigner } from './storage/url-signer.ts';

/**
 * Repositories that modules other than their owner read today (owners build their own). Built once here, so no
 * module builds another's; each entry is a seam to narrow into a service of its owner. Read by:
 */
function createSharedRepositories(db: Kysely<Database>) {
  return {
    /** auth, roles (countAdmins), sso, apps (members, detail). */
    users: createUsersRepository(db),
    /** users, sso. */
    roles: createRolesRepository(db),
    /** install, publish (findByPath), versions (lookup), device-enroll. */
    apps: createAppsRepository(db),
    /** commit-logs. */
    appMembers: createAppMembersRepository(db),
    /** publish (findByFileKey), commit-logs. */
    versions: createVersionsRepository(db),
    /** commit-logs, lark-docs (follows). */
    workflows: createWorkflowsRepository(db),
    /** device-enroll. */
    devices: createDevicesRepository(db),
    /** apple-accounts (provisioning). */
    certificates: createCertificatesRepository(db),
    /** publish (direct upload). */
    uploadSessions: createUploadSessionsRepository(db),
  };
}
export type SharedRepositories = ReturnType<typeof createSharedRepositories>;

/** Commit ingest on a database or a transaction (lark-docs writes an event's items in its own transaction). */
function ingestOn(db: Kysely<Database>, clock: CoreBase['clock']) {
  return createCommitIngestService({
    logs: createCommitLogsRepository(db),
    workflows: createWorkflowsRepository(db),
    versions: createVersionsRepository(db),
    clock,
  });
}

/** The services more than one module calls, each built once from the core and the shared repositories. */
export function createSharedServices(core: CoreBase) {
  const { db, clock, config, logger, jobs, blobs, box, mediaLinks } = core;
  const repos = createSharedRepositories(db);
  const commitLogs = createCommitLogsRepository(db);
  const policy = createAppsPolicy(repos.appMembers);
  const apiTokens = createApiTokensService({ tokens: createApiTokensRepository(db), users: repos.users, clock });
  const sessionRepo = createSessionRepository(db);
  const sessions = createSessionService({ sessions: sessionRepo, clock, apiTokens });
  const loginGuard = createAttemptLimiter(createLoginGuardRepository(db), clock);
  const settings = createSettingsService({ settings: createSettingsRepository(db), clock });
  const repoHosts = createRepoHostsService({ settings: createSettingsRepository(db), clock });
  const repoGuard = createRepoHostGuard({ rules: repoHosts.read, timeouts: config.repoTimeouts });
  const messaging = createMessaging({
    db,
    clock,
    logger,
    jobs,
    blobs,
    box,
    mediaLinks,
    policy,
    config,
    lark: core.lark,
    metrics: core.metrics,
  });
  const ingest = createCommitIngestService({
    logs: commitLogs,
    workflows: repos.workflows,
    versions: repos.versions,
    clock,
    // New items must never fail because autoPush could not be queued; the next new item queues it again.
    onNewItems: messaging.autoPushQuietly,
  });
  const media = createMediaService({
    blobs,
    clock,
    files: createMediaFilesRepository(db),
    graceMs: config.mediaGraceMs,
    logger,
  });
  const inspector = createInspectPool(config.inspection ?? DEFAULT_INSPECT_POOL);
  const uploads = createUploadsService({
    sessions: repos.uploadSessions,
    blobs,
    clock,
    maxPackageBytes: config.maxPackageBytes,
    policy,
    members: repos.appMembers,
    quota: config.uploadQuota,
  });
  const notifications = createNotificationsRepository(db);
  // Where each version came from (issue 19): recorded by publishing, resolved by the sync that brings the commit.
  const sourcesRepo = createVersionSourcesRepository(db);
  const sources = createVersionSourcesService({
    sources: sourcesRepo,
    workflows: repos.workflows,
    mirrorsDir: config.mirrorsDir,
    clock,
    logger,
    requestSync: (workflowId) => repoSyncJob.queue(workflowId),
  });
  const changes = createVersionChangesService({
    versions: repos.versions,
    workflows: repos.workflows,
    logs: commitLogs,
    sources: sourcesRepo,
    mirrorsDir: config.mirrorsDir,
  });
  const registration = createPackageRegistrationService({
    sources,
    uploads,
    versions: repos.versions,
    apps: repos.apps,
    members: repos.appMembers,
    notifications,
    policy,
    media,
    blobs,
    ingest,
    clock,
    inspectFile: (filePath, options) => inspector.inspect(filePath, options),
    metrics: core.metrics,
    announce: (actor, version, chatEnv, baseUrl) =>
      messaging.messaging.announceVersion(actor, version, chatEnv, baseUrl),
  });
  const certificates = createCertificatesService({ certificates: repos.certificates, box, clock });
  const tasksRepo = createTasksRepository(db);
  const tasksSync = createTasksSync({
    db,
    clock,
    lark: core.lark,
    jobs,
    policy,
    blobs,
    logger,
    tasks: tasksRepo,
  });
  const sync = createRepoSyncService({
    workflows: repos.workflows,
    logs: commitLogs,
    ingest,
    policy,
    mirrorsDir: config.mirrorsDir,
    clock,
    allowFileRemotes: config.allowFileRemotes,
    guard: repoGuard,
    timeouts: config.repoTimeouts,
    onSynced: (workflow) => sources.resolvePending(workflow),
  });
  // Webhooks, pushes, polls and Lark document events come in through one service.
  const inbound = createInboundService({
    workflows: repos.workflows,
    logs: commitLogs,
    ingest,
    sync,
    box,
    clock,
    jobs,
    logger,
    larkDocuments: createLarkDocumentReader({
      db,
      clock,
      lark: config.lark,
      docsBaseUrl: config.larkDocsBaseUrl,
      workflows: repos.workflows,
      identities: createIdentitiesRepository(db),
      ingestOn: (executor) => ingestOn(executor, clock),
      onNewItems: messaging.autoPushQuietly,
      onBaseChanged: tasksSync?.baseChangedQuietly,
      logger,
    }),
  });
  const repoSyncJob = createRepoSyncJob({ inbound, jobs, clock });
  const install = createInstallService({
    apps: repos.apps,
    access: createInstallAccessRepository(db),
    versions: repos.versions,
    policy,
    guard: loginGuard,
    box,
    signer: createUrlSigner(config.secret),
    clock,
    mediaLinks,
    // Tester feedback is on unless the app turned it off (modules/tasks, feedback.service.ts).
    feedbackOpen: async (appId) => Number((await tasksRepo.settings(appId))?.feedback_enabled ?? 1) === 1,
    changesOf: async (versionId) => shortenChanges(await changes.between(versionId)),
  });
  const zsign = createZsign({
    db,
    blobs,
    clock,
    jobs,
    policy,
    certificates,
    registration,
    versions: repos.versions,
    users: repos.users,
    config,
    logger,
  });
  core.housekeeping.add(() => sessionRepo.deleteExpired(clock.now()));
  core.housekeeping.add(() => loginGuard.deleteOlderThan(clock.now() - 24 * 60 * 60 * 1000));
  core.housekeeping.add(() => uploads.cleanUpAbandoned());
  return {
    repos,
    shared: {
      policy,
      apiTokens,
      sessions,
      loginGuard,
      settings,
      repoHosts,
      repoGuard,
      ...messaging,
      ingest,
      media,
      inspector,
      uploads,
      registration,
      sources,
      changes,
      certificates,
      tasksSync,
      inbound,
      /** Queues a repository workflow's first sync after a save; never fails the save (the next poll syncs it). */
      queueFirstSync: (id: number) =>
        repoSyncJob.queue(id).catch((err: unknown) => logger.error({ err }, 'queueing the first sync failed')),
      install,
      zsign,
      /** Bell notices to users (a tester's feedback tells its receivers). */
      bell: (rows: Parameters<typeof notifications.insertMany>[0]) => notifications.insertMany(rows),
    },
  };
}
export type SharedServices = ReturnType<typeof createSharedServices>['shared'];
