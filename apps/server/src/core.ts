import os from 'node:os';
import path from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { InspectPoolOptions } from '@release/inspect/worker/inspect-pool.ts';
import type { Database } from './db/schema.ts';
import type { LinkDeps } from './http/links.ts';
import { createMediaLinks, type MediaLinks } from './http/media-links.ts';
import type { TrustProxy } from './http/trust-proxy.ts';
import { DEFAULT_APPLE_API_BASE_URL } from './integrations/apple/asc-client.ts';
import { createLarkClient, type LarkClient, type LarkConfig } from './integrations/lark/lark-client.ts';
import type { LarkEventKeys } from './integrations/lark/lark-event-envelope.ts';
import { DEFAULT_REPO_TIMEOUTS, type RepoTimeouts } from './integrations/repo-access/repo-access-error.ts';
import { DEFAULT_ROBOT_HOSTS, type RobotHosts } from './integrations/robot-destination.ts';
import type { WecomConfig } from './integrations/wecom/wecom-client.ts';
import { createJobQueue, type JobQueue } from './jobs/queue.ts';
import { createScheduler, type Scheduler } from './jobs/scheduler.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createAppMetrics, type AppMetrics } from './lib/app-metrics.ts';
import { createLiveHub, type LiveHub } from './lib/live-hub.ts';
import type { Logger } from './lib/logger.ts';
import { createSecretBox, type SecretBox } from './lib/secret-box.ts';
import { createSharedServices, type SharedServices } from './core-services.ts';
import type { CliBundleSource } from './modules/cli-download/cli-bundle.ts';
import type { ProfileSigner } from './modules/device-enroll/mobileconfig.ts';
import type { UploadQuota } from './modules/uploads/uploads.service.ts';
import { createLogSmsProvider, type SmsProvider } from './sms/sms-provider.ts';
import type { ConfiguredBlobStore } from './storage/create-blob-store.ts';

/** Where a Lark document opens when LARK_DOCS_BASE_URL is not set (Feishu sends signed-in users on to their tenant). */
export const DEFAULT_LARK_DOCS_BASE_URL = 'https://www.feishu.cn';

/** MAX_PACKAGE_MB's default, 8 GiB. */
const DEFAULT_MAX_PACKAGE_BYTES = 8 * 1024 ** 3;

/** How often housekeeping (定期清理) runs. */
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;

/** What main.ts or a test gives buildApp; everything optional has its default in `resolveConfig`. */
export interface AppDeps {
  db: Kysely<Database>;
  /** Where packages and files are stored. */
  blobs: ConfiguredBlobStore;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Server secret for sealed values and signed URLs. */
  secret: string;
  /** Keys a rotation is moving off: they still open sealed values (never sign). */
  previousSecrets?: string[];
  /** PUBLIC_URL: the base of every absolute URL handed out. */
  publicUrl?: string;
  /** DOWNLOAD_BASE_URL: a CDN or download host for package and media links. */
  downloadBaseUrl?: string;
  /** Largest package accepted (bytes). */
  maxPackageBytes?: number;
  /** Unfinished uploads one user may hold (default 50 files, 20 GiB). */
  uploadQuota?: UploadQuota;
  /** MEDIA_GRACE_HOURS in ms (24 h unless a test wants another). */
  mediaGraceMs?: number;
  /** Package inspection worker threads (INSPECT_WORKERS, INSPECT_TIMEOUT_SEC, INSPECT_MEMORY_MB). */
  inspection?: InspectPoolOptions;
  /** Where git mirrors live; a temporary folder when not given. */
  mirrorsDir?: string;
  /** Whether file:// repositories may be polled. */
  allowFileRemotes?: boolean;
  /** Connect, idle and command limits of git and svn against a remote (REPO_*_TIMEOUT_SEC). */
  repoTimeouts?: RepoTimeouts;
  /** SYNC_INTERVAL_SEC in ms: how often git and svn workflows are polled; no polling schedule without it. */
  pollIntervalMs?: number;
  sms?: SmsProvider;
  /** Our Lark app; Lark sign-in and messages are off without it. */
  lark?: LarkConfig | null;
  /** Our WeCom app for sign-in. */
  wecom?: WecomConfig | null;
  /** Lark event subscription keys (LARK_VERIFICATION_TOKEN, LARK_ENCRYPT_KEY); /api/lark/event is off without them. */
  larkEvents?: LarkEventKeys | null;
  /** LARK_DOCS_BASE_URL: the tenant's document host, for links that open a document in Lark. */
  larkDocsBaseUrl?: string;
  /** Where robot webhooks may point; by default the Lark/WeCom hosts configured above (or the real ones). */
  robotHosts?: RobotHosts;
  /** APPLE_API_BASE_URL: the App Store Connect API (the fake in tests). */
  appleApiBaseUrl?: string;
  /** MOBILECONFIG_SIGN_CERT/KEY: signs the device registration profile; unsigned without it. */
  mobileconfigSigner?: ProfileSigner | null;
  /** How long `/api/zsign` waits for the re-signing before answering with the job to poll (default 50 s). */
  zsignWaitMs?: number;
  /** Whether `/api/zsign` runs the job queue in this process at once (default true; off, the started runners take it). */
  zsignRunOnRequest?: boolean;
  /** Where re-signing writes its working copies (the system temp folder by default). */
  zsignWorkDir?: string;
  /** The bytes of GET /cli/release-cli.mjs (default: dist/release-cli.mjs beside the bundle, or built from the sources). */
  cliBundle?: CliBundleSource;
  webDistDir?: string;
  trustProxy?: TrustProxy;
  /** METRICS_TOKEN: /metrics answers a request with this Bearer token; without it, only loopback peers not behind a proxy. */
  metricsToken?: string;
}

type Defaulted =
  | 'previousSecrets'
  | 'maxPackageBytes'
  | 'mirrorsDir'
  | 'allowFileRemotes'
  | 'repoTimeouts'
  | 'sms'
  | 'lark'
  | 'wecom'
  | 'larkEvents'
  | 'larkDocsBaseUrl'
  | 'robotHosts'
  | 'appleApiBaseUrl'
  | 'mobileconfigSigner'
  | 'zsignRunOnRequest';

/** AppDeps with every default applied once; modules read their settings here. */
export type CoreConfig = Omit<AppDeps, 'db' | 'blobs' | 'clock' | 'logger' | Defaulted> &
  Required<Pick<AppDeps, Defaulted>>;

function resolveConfig(deps: AppDeps, logger: Logger): CoreConfig {
  const { db: _db, blobs: _blobs, clock: _clock, logger: _logger, ...given } = deps;
  return {
    ...given,
    previousSecrets: deps.previousSecrets ?? [],
    maxPackageBytes: deps.maxPackageBytes ?? DEFAULT_MAX_PACKAGE_BYTES,
    mirrorsDir: deps.mirrorsDir ?? path.join(os.tmpdir(), 'release-mirrors'),
    allowFileRemotes: deps.allowFileRemotes ?? true,
    repoTimeouts: deps.repoTimeouts ?? DEFAULT_REPO_TIMEOUTS,
    sms: deps.sms ?? createLogSmsProvider(logger),
    lark: deps.lark ?? null,
    wecom: deps.wecom ?? null,
    larkEvents: deps.larkEvents ?? null,
    larkDocsBaseUrl: deps.larkDocsBaseUrl ?? DEFAULT_LARK_DOCS_BASE_URL,
    robotHosts: deps.robotHosts ?? {
      larkOpenBaseUrl: deps.lark?.openBaseUrl ?? DEFAULT_ROBOT_HOSTS.larkOpenBaseUrl,
      wecomBaseUrl: deps.wecom?.baseUrl ?? DEFAULT_ROBOT_HOSTS.wecomBaseUrl,
    },
    appleApiBaseUrl: deps.appleApiBaseUrl ?? DEFAULT_APPLE_API_BASE_URL,
    mobileconfigSigner: deps.mobileconfigSigner ?? null,
    zsignRunOnRequest: deps.zsignRunOnRequest ?? true,
  };
}

/** Housekeeping (hourly, the schedule 定期清理): each module adds the cleanup of what it owns. */
export interface Housekeeping {
  /** Adds a step; steps run in the order added, then the job and schedule records, then unreferenced media. */
  add(step: () => Promise<unknown>): void;
  run(): Promise<void>;
}

/** What every module's `register(app, core)` takes: the shared infrastructure and the few shared services. */
export interface Core {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  blobs: ConfiguredBlobStore;
  config: CoreConfig;
  jobs: JobQueue;
  scheduler: Scheduler;
  /** What a route that hands out package, media or API links needs (http/links.ts). */
  links: LinkDeps;
  box: SecretBox;
  mediaLinks: MediaLinks;
  /** Our Lark app's client; null without LARK_APP_ID. */
  lark: LarkClient | null;
  housekeeping: Housekeeping;
  /** The counters of /metrics that requests, uploads and deliveries add to. */
  metrics: AppMetrics;
  /** Live events to the browsers (new versions, items, task changes, notices), across processes on PostgreSQL. */
  live: LiveHub;
  /** Services more than one module calls, and what owners let other modules read of their data (core-services.ts). */
  shared: SharedServices;
}

/** The fields of Core that core-services.ts builds on. */
export type CoreBase = Omit<Core, 'shared'>;

/** Builds the core once per app: the defaults, the job queue and scheduler, and the shared services. */
export function createCore(deps: AppDeps, logger: Logger): Core {
  const clock = deps.clock ?? systemClock;
  const config = resolveConfig(deps, logger);
  const jobs = createJobQueue({ db: deps.db, clock, logger });
  const scheduler = createScheduler({ db: deps.db, clock, logger });
  const mediaLinks = createMediaLinks({ secret: config.secret, clock });
  const steps: (() => Promise<unknown>)[] = [];
  const base: CoreBase = {
    db: deps.db,
    clock,
    logger,
    blobs: deps.blobs,
    config,
    jobs,
    scheduler,
    links: { blobs: deps.blobs, publicUrl: config.publicUrl, downloadBaseUrl: config.downloadBaseUrl, mediaLinks },
    box: createSecretBox(config.secret, config.previousSecrets),
    mediaLinks,
    lark: config.lark ? createLarkClient(config.lark, clock) : null,
    metrics: createAppMetrics(),
    live: createLiveHub({ db: deps.db, logger }),
    housekeeping: {
      add: (step) => steps.push(step),
      run: async () => {
        for (const step of steps) await step();
        await jobs.purgeDone();
        await scheduler.purgeRuns();
        await shared.media.purgeUnreferenced(clock.now());
      },
    },
  };
  const { shared } = createSharedServices(base);
  scheduler.define({
    name: 'housekeeping',
    title: '定期清理',
    intervalMs: HOUSEKEEPING_INTERVAL_MS,
    run: () => base.housekeeping.run(),
  });
  return { ...base, shared };
}
