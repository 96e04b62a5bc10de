import type { Kysely } from 'kysely';
import { createInspectPool, DEFAULT_INSPECT_POOL } from '@release/inspect/worker/inspect-pool.ts';
import type { CoreBase } from './core.ts';
import type { Database } from './db/schema.ts';
import { createRepoHostGuard } from './integrations/repo-access/repo-host-guard.ts';
import { createApiTokensRepository } from './modules/api-tokens/api-tokens.repository.ts';
import { createApiTokensService } from './modules/api-tokens/api-tokens.service.ts';
import { createAttemptLimiter } from './modules/auth/attempt-limiter.ts';
import { createLoginGuardRepository } from './modules/auth/login-guard.repository.ts';
import { createSessionRepository } from './modules/auth/session.repository.ts';
import { createSessionService } from './modules/auth/session.service.ts';
import { createCertificatesService } from './modules/certificates/certificates.service.ts';
import { signedManifestReader } from './modules/install/harmony-signed-manifest.ts';
import { createInstallAccessRepository } from './modules/install/install-access.repository.ts';
import { createInstallService } from './modules/install/install.service.ts';
import { createLarkDocumentReader } from './modules/lark-docs/lark-docs.module.ts';
import { createMediaFilesRepository } from './modules/media/media-files.repository.ts';
import { createMediaService } from './modules/media/media.service.ts';
import { createMessaging } from './modules/messaging/messaging.module.ts';
import { createNotificationsDirectory } from './modules/notifications/notifications-directory.ts';
import { createRepoHostsService } from './modules/settings/repo-hosts.service.ts';
import { createSettingsRepository } from './modules/settings/settings.repository.ts';
import { createSettingsDirectory } from './modules/settings/settings-directory.ts';
import { createSettingsService } from './modules/settings/settings.service.ts';
import { createIdentitiesDirectory } from './modules/sso/identities-directory.ts';
import { createInboundService } from './modules/sync/inbound.service.ts';
import { createRepoSyncJob } from './modules/sync/repo-sync.job.ts';
import { createRepoSyncService } from './modules/sync/repo-sync.service.ts';
import { createTasksSync } from './modules/tasks-sync/tasks-sync.module.ts';
import { createTasksDirectory } from './modules/tasks/tasks-directory.ts';
import { createUploadsService } from './modules/uploads/uploads.service.ts';
import { createPackageRegistrationService } from './modules/publish/package-registration.service.ts';
import { createVersionSourcesRepository } from './modules/changes/version-sources.repository.ts';
import { createVersionSourcesService } from './modules/changes/version-sources.service.ts';
import { createVersionChangesService } from './modules/changes/version-changes.service.ts';
import { createInstallChanges } from './modules/changes/install-changes.ts';
import { createInstallHistory } from './modules/install/install-history.ts';
import { createPackageChangesService } from './modules/package-changes/package-changes.service.ts';
import { createZsign } from './modules/zsign/zsign.module.ts';
import { createAppsDirectory } from './modules/apps/apps-directory.ts';
import { createCertificatesDirectory } from './modules/certificates/certificates-directory.ts';
import { createCommitIngest } from './modules/commit-logs/commit-ingest.ts';
import { createCommitLogsDirectory } from './modules/commit-logs/commit-logs-directory.ts';
import { createDevicesDirectory } from './modules/devices/devices-directory.ts';
import { createRolesDirectory } from './modules/roles/roles-directory.ts';
import { createUploadSessionsDirectory } from './modules/uploads/upload-sessions-directory.ts';
import { createUsersDirectory } from './modules/users/users-directory.ts';
import { createVersionsDirectory } from './modules/versions/versions-directory.ts';
import { createWorkflowsDirectory } from './modules/workflows/workflows-directory.ts';
import { createCertificatesRepository } from './modules/certificates/certificates.repository.ts';
import { createHarmonyCertificatesRepository } from './modules/certificates/harmony-certificates.repository.ts';
import { createHarmonyCertificatesService } from './modules/certificates/harmony-certificates.service.ts';
import { createUploadSessionsRepository } from './modules/uploads/upload-sessions.repository.ts';
import { createUrlSigner } from './storage/url-signer.ts';

/**
 * What modules read and change of another module's data, each built once by its owner (a `*-directory.ts` beside the
 * owner's repository): no module builds or holds another's repository.
 */
function createDirectories(db: Kysely<Database>) {
  const { apps, members, policy } = createAppsDirectory(db);
  return {
    users: createUsersDirectory(db),
    roles: createRolesDirectory(db),
    apps,
    members,
    policy,
    versions: createVersionsDirectory(db),
    workflows: createWorkflowsDirectory(db),
    devices: createDevicesDirectory(db),
    certificateRecords: createCertificatesDirectory(db),
    uploadSessions: createUploadSessionsDirectory(db),
    commitLogs: createCommitLogsDirectory(db),
    settingsStore: createSettingsDirectory(db),
  };
}

/** The services more than one module calls, each built once from the core and the owners' directories. */
export function createSharedServices(core: CoreBase) {
  const { db, clock, config, logger, jobs, blobs, box, mediaLinks } = core;
  const directories = createDirectories(db);
  const { users, policy, commitLogs } = directories;
  const apiTokens = createApiTokensService({ tokens: createApiTokensRepository(db), users, clock });
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
    // Bound late: the changes service is built below, and is called only when a package is pushed.
    changesOf: (versionId) => changes.between(versionId, undefined, async () => undefined),
  });
  /** New update items: the browsers of the apps hear of them at once, autoPush sends them to the robots. */
  const newItems = (targets: Array<Parameters<typeof messaging.autoPushQuietly>[0][number] & { app_id: number }>) => {
    for (const appId of new Set(targets.map((t) => t.app_id))) core.live.publish({ type: 'items', appId });
    return messaging.autoPushQuietly(targets);
  };
  const ingest = createCommitIngest(db, {
    clock,
    // New items must never fail because autoPush could not be queued; the next new item queues it again.
    onNewItems: newItems,
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
    sessions: createUploadSessionsRepository(db),
    blobs,
    clock,
    maxPackageBytes: config.maxPackageBytes,
    policy,
    members: directories.members,
    quota: config.uploadQuota,
    warmInspector: () => inspector.warm(),
  });
  const notifications = createNotificationsDirectory(db);
  // Where each version came from (issue 19): recorded by publishing, resolved by the sync that brings the commit.
  const sourcesRepo = createVersionSourcesRepository(db);
  const sources = createVersionSourcesService({
    sources: sourcesRepo,
    workflows: directories.workflows,
    mirrorsDir: config.mirrorsDir,
    clock,
    logger,
    requestSync: (workflowId) => repoSyncJob.queue(workflowId),
  });
  const changes = createVersionChangesService({
    versions: directories.versions,
    workflows: directories.workflows,
    logs: commitLogs,
    sources: sourcesRepo,
    mirrorsDir: config.mirrorsDir,
    lastTaken: createInstallHistory(db).lastTaken,
  });
  // How the package itself changed (issue 19): thresholds mark a new build as it is stored.
  const packageChanges = createPackageChangesService({ db, versions: directories.versions, policy, clock });
  const registration = createPackageRegistrationService({
    sources,
    packageAlerts: packageChanges.alertsFor,
    uploads,
    versions: directories.versions,
    apps: directories.apps,
    members: directories.members,
    notifications,
    policy,
    media,
    blobs,
    ingest,
    clock,
    inspectFile: (filePath, options) => inspector.inspect(filePath, options),
    metrics: core.metrics,
    live: core.live,
    // The announcement lists the changes since the build before it; publishing checked the actor may edit the app.
    announce: (actor, version, chatEnv, baseUrl) =>
      messaging.messaging.announceVersion(actor, version, chatEnv, baseUrl),
  });
  const certificates = createCertificatesService({ certificates: createCertificatesRepository(db), box, clock });
  const harmonyCertificates = createHarmonyCertificatesService({
    certificates: createHarmonyCertificatesRepository(db),
    box,
    clock,
  });
  const taskRecords = createTasksDirectory(db);
  const tasksSync = createTasksSync({
    db,
    clock,
    lark: core.lark,
    jobs,
    policy,
    blobs,
    logger,
    tasks: taskRecords,
  });
  const sync = createRepoSyncService({
    workflows: directories.workflows,
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
    workflows: directories.workflows,
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
      workflows: directories.workflows,
      identities: createIdentitiesDirectory(db),
      ingestOn: (executor) => createCommitIngest(executor, { clock }),
      onNewItems: newItems,
      onBaseChanged: tasksSync?.baseChangedQuietly,
      logger,
    }),
  });
  const repoSyncJob = createRepoSyncJob({ inbound, jobs, clock });
  const install = createInstallService({
    apps: directories.apps,
    access: createInstallAccessRepository(db),
    versions: directories.versions,
    policy,
    guard: loginGuard,
    box,
    signer: createUrlSigner(config.secret),
    clock,
    mediaLinks,
    // Tester feedback is on unless the app turned it off (modules/tasks, feedback.service.ts).
    feedbackOpen: async (appId) => Number((await taskRecords.settings(appId))?.feedback_enabled ?? 1) === 1,
    changesOf: createInstallChanges({ changes }),
    signedManifest: signedManifestReader(blobs, harmonyCertificates.signingKeyFor),
  });
  const zsign = createZsign({
    db,
    blobs,
    clock,
    jobs,
    policy,
    certificates,
    registration,
    versions: directories.versions,
    users: directories.users,
    config,
    logger,
  });
  core.housekeeping.add(() => sessionRepo.deleteExpired(clock.now()));
  core.housekeeping.add(() => loginGuard.deleteOlderThan(clock.now() - 24 * 60 * 60 * 1000));
  core.housekeeping.add(() => uploads.cleanUpAbandoned());
  return {
    shared: {
      ...directories,
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
      packageChanges,
      certificates,
      harmonyCertificates,
      tasksSync,
      inbound,
      /** Queues a repository workflow's first sync after a save; never fails the save (the next poll syncs it). */
      queueFirstSync: (id: number) =>
        repoSyncJob.queue(id).catch((err: unknown) => logger.error({ err }, 'queueing the first sync failed')),
      install,
      zsign,
      /** Bell notices to users (a tester's feedback tells its receivers). */
      bell: async (rows: Parameters<typeof notifications.insertMany>[0]) => {
        await notifications.insertMany(rows);
        for (const appId of new Set(rows.map((r) => r.appId))) core.live.publish({ type: 'notice', appId });
      },
    },
  };
}
export type SharedServices = ReturnType<typeof createSharedServices>['shared'];
