import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { ZSIGN_SERVER_WAIT_MS } from '@release/contract';
import type { Core, CoreConfig } from '../../core.ts';
import type { Database } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ConfiguredBlobStore } from '../../storage/create-blob-store.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { CertificatesService } from '../certificates/certificates.service.ts';
import type { PackageRegistrationService } from '../publish/package-registration.service.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import { createZsignJob } from './zsign.job.ts';
import { removeFilesOfFailedResigns, removeStaleWorkDirs } from './zsign-orphans.ts';
import { createZsignRepository } from './zsign.repository.ts';
import { zsignRoutes } from './zsign.routes.ts';
import { createZsignService, type UsersLookup, type ZsignService } from './zsign.service.ts';

/**
 * Re-signing ipa versions as durable jobs: the job on the queue and the service (built once in core-services.ts, as
 * apple-accounts re-signs for a build device too).
 */
export function createZsign(deps: {
  db: Kysely<Database>;
  blobs: ConfiguredBlobStore;
  clock: Clock;
  jobs: JobQueue;
  policy: AppsPolicy;
  certificates: CertificatesService;
  registration: PackageRegistrationService;
  versions: VersionsDirectory;
  /** Who asked for a re-signing (the version's uploader name). */
  users: UsersLookup;
  config: Pick<CoreConfig, 'zsignWaitMs' | 'zsignRunOnRequest' | 'zsignWorkDir'>;
  logger: Logger;
}): ZsignService {
  const resigns = createZsignRepository(deps.db);
  let service: ZsignService | null = null;
  const job = createZsignJob({
    resigns,
    versions: deps.versions,
    certificates: deps.certificates,
    registration: deps.registration,
    users: deps.users,
    blobs: deps.blobs,
    clock: deps.clock,
    logger: deps.logger,
    workDir: deps.config.zsignWorkDir,
    notify: (id) => service?.notify(id),
  });
  deps.jobs.register(job);
  service = createZsignService({
    resigns,
    versions: deps.versions,
    certificates: deps.certificates,
    policy: deps.policy,
    jobs: deps.jobs,
    job: () => job,
    clock: deps.clock,
    waitMs: deps.config.zsignWaitMs ?? ZSIGN_SERVER_WAIT_MS,
    runOnRequest: deps.config.zsignRunOnRequest,
  });
  return service;
}

/** `/api/zsign`: re-signing ipa versions, their progress, and the certificates to choose from. */
export async function register(app: FastifyInstance, core: Core): Promise<void> {
  core.housekeeping.add(() => removeFilesOfFailedResigns({ db: core.db, blobs: core.blobs, clock: core.clock }));
  // Work folders of runs whose process died (on the local store they sit in its scratch folder); by file times, so
  // by the wall clock.
  const workRoot = core.config.zsignWorkDir ?? (core.blobs.kind === 'local' ? core.blobs.scratchDir : os.tmpdir());
  core.housekeeping.add(() => removeStaleWorkDirs(workRoot, Date.now()));
  await app.register(zsignRoutes({ service: core.shared.zsign, ...core.links }));
}
