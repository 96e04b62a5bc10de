import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import type { Clock } from './lib/clock.ts';
import type { SmsProvider } from './sms/sms-provider.ts';
import { createAppsRepository } from './modules/apps/apps.repository.ts';
import { createAppsService } from './modules/apps/apps.service.ts';
import { createAppDetailService } from './modules/apps/app-detail.service.ts';
import { createAppMembersRepository } from './modules/apps/app-members.repository.ts';
import { createAppMembersService } from './modules/apps/app-members.service.ts';
import { createAppsPolicy } from './modules/apps/apps.policy.ts';
import { createSecretBox } from './lib/secret-box.ts';
import { createMediaService } from './modules/media/media.service.ts';
import { createMediaLinks } from './http/media-links.ts';
import { createMediaFilesRepository } from './modules/media/media-files.repository.ts';
import { createUploadSessionsRepository } from './modules/uploads/upload-sessions.repository.ts';
import { createUploadsService, type UploadQuota } from './modules/uploads/uploads.service.ts';
import { removeFilesOfFailedResigns } from './modules/zsign/zsign-orphans.ts';
import { createPackageRegistrationService } from './modules/versions/package-registration.service.ts';
import {
  createInspectPool,
  DEFAULT_INSPECT_POOL,
  type InspectPoolOptions,
} from '@release/inspect/worker/inspect-pool.ts';
import { createVersionsRepository } from './modules/versions/versions.repository.ts';
import { createVersionsService } from './modules/versions/versions.service.ts';
import { createVersionRemovalService } from './modules/versions/version-removal.service.ts';
import type { ConfiguredBlobStore } from './storage/create-blob-store.ts';
import { createUrlSigner } from './storage/url-signer.ts';
import { createInstallAccessRepository } from './modules/install/install-access.repository.ts';
import { createInstallAccessService } from './modules/install/install-access.service.ts';
import { createInstallService } from './modules/install/install.service.ts';
import { createCommitIngestService } from './modules/commit-logs/commit-ingest.service.ts';
import { createCommitLogsRepository } from './modules/commit-logs/commit-logs.repository.ts';
import { createCommitLogsService } from './modules/commit-logs/commit-logs.service.ts';
import { createWorkflowsRepository } from './modules/workflows/workflows.repository.ts';
import { createWorkflowsService } from './modules/workflows/workflows.service.ts';
import { createRepoSyncService } from './modules/sync/repo-sync.service.ts';
import { createRepoSyncJob } from './modules/sync/repo-sync.job.ts';
import { createInboundService } from './modules/sync/inbound.service.ts';
import { createRepoHostsService } from './modules/settings/repo-hosts.service.ts';
import { createRepoHostGuard } from './integrations/repo-access/repo-host-guard.ts';
import { DEFAULT_REPO_TIMEOUTS, type RepoTimeouts } from './integrations/repo-access/repo-access-error.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createLoginGuardRepository } from './modules/auth/login-guard.repository.ts';
import { createAttemptLimiter } from './modules/auth/attempt-limiter.ts';
import { createPhoneCodeRepository } from './modules/auth/phone-code.repository.ts';
import { createPhoneCodeService } from './modules/auth/phone-code.service.ts';
import { createSessionRepository } from './modules/auth/session.repository.ts';
import { createSessionService } from './modules/auth/session.service.ts';
import { createCategoriesRepository } from './modules/categories/categories.repository.ts';
import { createCategoriesService } from './modules/categories/categories.service.ts';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { createRolesRepository } from './modules/roles/roles.repository.ts';
import { createRolesService } from './modules/roles/roles.service.ts';
import { createSettingsRepository } from './modules/settings/settings.repository.ts';
import { createSettingsService } from './modules/settings/settings.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { createApiTokensRepository } from './modules/api-tokens/api-tokens.repository.ts';
import { createApiTokensService } from './modules/api-tokens/api-tokens.service.ts';
import { createVersionLookupService } from './modules/versions/version-lookup.service.ts';
import { createLarkClient, type LarkConfig } from './integrations/lark/lark-client.ts';
import { createWecomClient, type WecomConfig } from './integrations/wecom/wecom-client.ts';
import { createIdentitiesRepository } from './modules/sso/identities.repository.ts';
import { createSignInStatesRepository } from './modules/sso/sign-in-states.repository.ts';
import { createSignInStates } from './modules/sso/sign-in-states.ts';
import { createSsoAccounts } from './modules/sso/sso-accounts.ts';
import { createSsoService } from './modules/sso/sso.service.ts';
import { createCertificatesRepository } from './modules/certificates/certificates.repository.ts';
import { createCertificatesService } from './modules/certificates/certificates.service.ts';
import { createDevicesRepository } from './modules/devices/devices.repository.ts';
import { createDevicesService } from './modules/devices/devices.service.ts';
import { createJobQueue } from './jobs/queue.ts';
import type { Logger } from './lib/logger.ts';
import { createScheduler } from './jobs/scheduler.ts';
import { createAutoPushJob } from './modules/messaging/auto-push.job.ts';
import { createDeliveriesRepository } from './modules/messaging/deliveries.repository.ts';
import { createDeliveryJob } from './modules/messaging/delivery.job.ts';
import { createLarkIcons } from './modules/messaging/lark-icon.ts';
import { createDeliveryLogService } from './modules/messaging/delivery-log.service.ts';
import { createDeliveryQueue } from './modules/messaging/delivery-queue.ts';
import type { RobotHosts } from './integrations/robot-destination.ts';
import { createMessagingRepository } from './modules/messaging/messaging.repository.ts';
import { createMessagingService } from './modules/messaging/messaging.service.ts';
import { createReceiverResolver } from './modules/messaging/receivers.ts';

/** Wires repositories into services with explicit dependencies. */
export interface ServiceDeps {
  db: Kysely<Database>;
  blobs: ConfiguredBlobStore;
  clock: Clock;
  sms: SmsProvider;
  /** Our Lark app (sign-in, messages); null when LARK_APP_ID is unset. */
  lark: LarkConfig | null;
  /** Our WeCom app for sign-in; null when WECOM_CORP_ID is unset. */
  wecom: WecomConfig | null;
  secret: string;
  /** Keys a rotation is moving off (they open sealed values, never sign). */
  previousSecrets?: string[];
  maxPackageBytes: number;
  /** MEDIA_GRACE_HOURS in ms: how long a stored picture may wait for a record to name it before housekeeping deletes it. */
  mediaGraceMs?: number;
  /** Unfinished uploads one user may hold (UPLOAD_QUOTA_FILES, UPLOAD_QUOTA_MB). */
  uploadQuota?: UploadQuota;
  /** Where git mirrors live (DATA_DIR/mirrors). */
  mirrorsDir: string;
  /** Whether file:// repositories may be polled (tests and single-machine setups). */
  allowFileRemotes: boolean;
  /** Connect, idle and command limits of git and svn against a remote (REPO_*_TIMEOUT_SEC). */
  repoTimeouts?: RepoTimeouts;
  /** Where robot webhooks may point (LARK_OPEN_BASE_URL, WECOM_BASE_URL). */
  robotHosts: RobotHosts;
  /** PUBLIC_URL, for links in messages sent without a request (autoPush). */
  publicUrl: string | null;
  logger?: Logger;
  /** Package inspection worker threads (INSPECT_WORKERS, INSPECT_TIMEOUT_SEC, INSPECT_MEMORY_MB). */
  inspection?: InspectPoolOptions;
  /** How often git and svn workflows are polled (SYNC_INTERVAL_SEC); no polling without it. */
  pollIntervalMs?: number;
}

/** How often housekeeping (purgeExpired) runs. */
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;

export function createServices(deps: ServiceDeps) {
  const { db, clock, sms } = deps;
  const appsRepo = createAppsRepository(db);
  const installAccessRepo = createInstallAccessRepository(db);
  const appMembers = createAppMembersRepository(db);
  const appsPolicy = createAppsPolicy(appMembers);
  const notificationsRepo = createNotificationsRepository(db);
  const versionsRepo = createVersionsRepository(db);
  const workflowsRepo = createWorkflowsRepository(db);
  const commitLogsRepo = createCommitLogsRepository(db);
  const jobs = createJobQueue({ db, clock, logger: deps.logger });
  const scheduler = createScheduler({ db, clock, logger: deps.logger });
  const messagingRepo = createMessagingRepository(db);
  const deliveriesRepo = createDeliveriesRepository(db);
  const box = createSecretBox(deps.secret, deps.previousSecrets ?? []);
  const mediaLinks = createMediaLinks({ secret: deps.secret, clock });
  const larkClient = deps.lark ? createLarkClient(deps.lark, clock) : null;
  const larkIcons = createLarkIcons({ db, blobs: deps.blobs, lark: larkClient, clock, logger: deps.logger });
  const deliveryJob = createDeliveryJob({
    deliveries: deliveriesRepo,
    messaging: messagingRepo,
    box,
    lark: larkClient,
    hosts: deps.robotHosts,
    clock,
    icons: larkIcons,
  });
  const deliveryQueue = createDeliveryQueue({ db, deliveries: deliveriesRepo, jobs, job: () => deliveryJob, clock });
  const autoPush = createAutoPushJob({
    db,
    messaging: messagingRepo,
    queue: deliveryQueue,
    jobs,
    hosts: deps.robotHosts,
    publicUrl: deps.publicUrl,
    clock,
    mediaLinks,
  });
  jobs.register(deliveryJob);
  jobs.register(autoPush.job);
  const deliveryLog = createDeliveryLogService({ db, deliveries: deliveriesRepo, jobs, clock });
  const ingest = createCommitIngestService({
    logs: commitLogsRepo,
    workflows: workflowsRepo,
    versions: versionsRepo,
    clock,
    // New items must never fail because autoPush could not be queued; the next new item queues it again.
    onNewItems: (targets) =>
      autoPush.trigger(targets).catch((err: unknown) => deps.logger?.error({ err }, 'queueing autoPush failed')),
  });
  const media = createMediaService({
    blobs: deps.blobs,
    clock,
    files: createMediaFilesRepository(db),
    graceMs: deps.mediaGraceMs,
    logger: deps.logger,
  });
  const inspector = createInspectPool(deps.inspection ?? DEFAULT_INSPECT_POOL);
  const uploads = createUploadsService({
    sessions: createUploadSessionsRepository(db),
    blobs: deps.blobs,
    clock,
    maxPackageBytes: deps.maxPackageBytes,
    policy: appsPolicy,
    members: appMembers,
    quota: deps.uploadQuota,
  });
  const usersRepo = createUsersRepository(db);
  const rolesRepo = createRolesRepository(db);
  const sessionRepo = createSessionRepository(db);
  const loginGuard = createAttemptLimiter(createLoginGuardRepository(db), clock);
  const apiTokens = createApiTokensService({ tokens: createApiTokensRepository(db), users: usersRepo, clock });
  const sessions = createSessionService({ sessions: sessionRepo, clock, apiTokens });
  const settings = createSettingsService({ settings: createSettingsRepository(db), clock });
  const repoHosts = createRepoHostsService({ settings: createSettingsRepository(db), clock });
  const repoTimeouts = deps.repoTimeouts ?? DEFAULT_REPO_TIMEOUTS;
  const repoGuard = createRepoHostGuard({ rules: repoHosts.read, timeouts: repoTimeouts });
  const sync = createRepoSyncService({
    workflows: workflowsRepo,
    logs: commitLogsRepo,
    ingest,
    policy: appsPolicy,
    mirrorsDir: deps.mirrorsDir,
    clock,
    allowFileRemotes: deps.allowFileRemotes,
    guard: repoGuard,
    timeouts: repoTimeouts,
  });
  // Webhooks, pushes, polls and Lark document events come in through one service.
  const inbound = createInboundService({
    workflows: workflowsRepo,
    logs: commitLogsRepo,
    ingest,
    sync,
    box,
    clock,
    jobs,
    logger: deps.logger,
  });
  const repoSyncJob = createRepoSyncJob({ inbound, jobs, clock });
  const phoneCodes = createPhoneCodeService({ codes: createPhoneCodeRepository(db), sms, clock });
  const identities = createIdentitiesRepository(db);
  const sso = createSsoService({
    states: createSignInStates(createSignInStatesRepository(db), clock),
    accounts: createSsoAccounts({ identities, users: usersRepo, roles: rolesRepo, clock }),
    identities,
    users: usersRepo,
    sessions,
    lark: larkClient,
    wecom: deps.wecom ? createWecomClient(deps.wecom, clock) : null,
    clock,
  });
  const messaging = createMessagingService({
    messaging: messagingRepo,
    receivers: createReceiverResolver({
      messaging: messagingRepo,
      hosts: deps.robotHosts,
      larkEnabled: Boolean(larkClient),
    }),
    queue: deliveryQueue,
    log: deliveryLog,
    policy: appsPolicy,
    mediaLinks,
  });
  /** Housekeeping (hourly, the schedule 定期清理): expired sessions and sign-in states, stale guess counters, abandoned uploads, files of failed re-signs, old job and schedule-run records, media no record names after MEDIA_GRACE_HOURS. */
  async function purgeExpired() {
    const now = clock.now();
    await sessionRepo.deleteExpired(now);
    await loginGuard.deleteOlderThan(now - 24 * 60 * 60 * 1000);
    await uploads.cleanUpAbandoned();
    await removeFilesOfFailedResigns({ db, blobs: deps.blobs, clock });
    await sso.purgeExpired();
    await jobs.purgeDone();
    await scheduler.purgeRuns();
    await media.purgeUnreferenced(now);
  }
  scheduler.define({
    name: 'housekeeping',
    title: '定期清理',
    intervalMs: HOUSEKEEPING_INTERVAL_MS,
    run: purgeExpired,
  });
  // Polling of git and svn workflows; a webhook makes a poll unnecessary but never wrong.
  if (deps.pollIntervalMs)
    scheduler.define({
      name: 'repository-poll',
      title: '仓库轮询',
      intervalMs: deps.pollIntervalMs,
      run: () => inbound.pollAll(),
    });
  return {
    inspector,
    sso,
    larkClient,
    jobs,
    scheduler,
    deliveryJob,
    autoPush,
    deliveryLog,
    messaging,
    sessions,
    settings,
    auth: createAuthService({
      users: usersRepo,
      sessions,
      guard: loginGuard,
      phoneCodes,
      settings,
      sms,
      clock,
      larkAppId: deps.lark?.appId ?? null,
      wecomEnabled: Boolean(deps.wecom),
    }),
    users: createUsersService({ users: usersRepo, roles: rolesRepo, sessions, clock }),
    roles: createRolesService({ roles: rolesRepo, users: usersRepo, clock }),
    categories: createCategoriesService({ categories: createCategoriesRepository(db), clock }),
    apps: createAppsService({ apps: appsRepo, mediaLinks }),
    appsPolicy,
    appDetail: createAppDetailService({
      apps: appsRepo,
      members: appMembers,
      users: usersRepo,
      policy: appsPolicy,
      box,
      clock,
      robotHosts: deps.robotHosts,
      mediaLinks,
    }),
    appMembers: createAppMembersService({
      apps: appsRepo,
      members: appMembers,
      users: usersRepo,
      policy: appsPolicy,
      clock,
    }),
    notifications: createNotificationsService({ notifications: notificationsRepo }),
    media,
    mediaLinks,
    uploads,
    install: createInstallService({
      apps: appsRepo,
      access: installAccessRepo,
      versions: versionsRepo,
      policy: appsPolicy,
      guard: loginGuard,
      box,
      signer: createUrlSigner(deps.secret),
      clock,
      mediaLinks,
    }),
    installAccess: createInstallAccessService({ apps: appsRepo, access: installAccessRepo, policy: appsPolicy, box }),
    versions: createVersionsService({ versions: versionsRepo, policy: appsPolicy, clock }),
    versionRemoval: createVersionRemovalService({ db, blobs: deps.blobs, policy: appsPolicy, logger: deps.logger }),
    versionLookup: createVersionLookupService({ apps: appsRepo, versions: versionsRepo, policy: appsPolicy }),
    apiTokens,
    registration: createPackageRegistrationService({
      uploads,
      versions: versionsRepo,
      apps: appsRepo,
      members: appMembers,
      notifications: notificationsRepo,
      policy: appsPolicy,
      media,
      blobs: deps.blobs,
      ingest,
      clock,
      inspectFile: (filePath, options) => inspector.inspect(filePath, options),
      announce: (actor, version, chatEnv, baseUrl) => messaging.announceVersion(actor, version, chatEnv, baseUrl),
    }),
    ingest,
    box,
    certificates: createCertificatesService({ certificates: createCertificatesRepository(db), box, clock }),
    devices: createDevicesService({ devices: createDevicesRepository(db), clock }),
    workflowsRepo,
    inbound,
    repoHosts,
    workflows: createWorkflowsService({
      workflows: workflowsRepo,
      policy: appsPolicy,
      box,
      ingest,
      clock,
      robots: { hosts: deps.robotHosts, lastItemId: (id) => messagingRepo.lastItemId(id) },
      allowFileRemotes: deps.allowFileRemotes,
      guard: repoGuard,
      // Saved whatever happens to the queueing; the next poll syncs it then.
      onRepoSaved: (id) =>
        repoSyncJob.queue(id).catch((err: unknown) => deps.logger?.error({ err }, 'queueing the first sync failed')),
    }),
    commitLogs: createCommitLogsService({
      logs: commitLogsRepo,
      workflows: workflowsRepo,
      versions: versionsRepo,
      members: appMembers,
      policy: appsPolicy,
      clock,
    }),
    purgeExpired,
  };
}
export type Services = ReturnType<typeof createServices>;
