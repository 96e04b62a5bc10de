import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { ZSIGN_SERVER_WAIT_MS } from '@release/contract';
import type { Database } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { CertificatesService } from '../certificates/certificates.service.ts';
import type { PackageRegistrationService } from '../versions/package-registration.service.ts';
import type { LinkDeps } from '../../http/links.ts';
import { createVersionsRepository } from '../versions/versions.repository.ts';
import type { ConfiguredBlobStore } from '../../storage/create-blob-store.ts';
import { createZsignJob } from './zsign.job.ts';
import { createZsignRepository } from './zsign.repository.ts';
import { zsignRoutes } from './zsign.routes.ts';
import { createZsignService, type ZsignService } from './zsign.service.ts';
import type { Logger } from '../../lib/logger.ts';

export interface ZsignModuleDeps extends LinkDeps {
  db: Kysely<Database>;
  blobs: ConfiguredBlobStore;
  clock: Clock;
  jobs: JobQueue;
  policy: AppsPolicy;
  certificates: CertificatesService;
  registration: PackageRegistrationService;
  /** How long `/api/zsign` waits before answering with the job to poll. */
  waitMs?: number;
  /** Whether `/api/zsign` runs the queue in this process at once (default); off, the job waits for a runner. */
  runOnRequest?: boolean;
  /** Where re-signing writes its working copies (the system temp folder by default). */
  workDir?: string;
  logger?: Logger;
}

/** `/api/zsign`: re-signing ipa versions as durable jobs, their progress, and the certificates to choose from. */
export async function registerZsign(app: FastifyInstance, deps: ZsignModuleDeps): Promise<ZsignService> {
  const resigns = createZsignRepository(deps.db);
  const versions = createVersionsRepository(deps.db);
  const users = {
    findById: (id: number) => deps.db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirst(),
  };
  let service: ZsignService | null = null;
  const job = createZsignJob({
    resigns,
    versions,
    certificates: deps.certificates,
    registration: deps.registration,
    users,
    blobs: deps.blobs,
    clock: deps.clock,
    logger: deps.logger,
    workDir: deps.workDir,
    notify: (id) => service?.notify(id),
  });
  deps.jobs.register(job);
  service = createZsignService({
    resigns,
    versions,
    certificates: deps.certificates,
    policy: deps.policy,
    jobs: deps.jobs,
    job: () => job,
    clock: deps.clock,
    waitMs: deps.waitMs ?? ZSIGN_SERVER_WAIT_MS,
    runOnRequest: deps.runOnRequest ?? true,
  });
  await app.register(
    zsignRoutes({
      service,
      blobs: deps.blobs,
      publicUrl: deps.publicUrl,
      downloadBaseUrl: deps.downloadBaseUrl,
      mediaLinks: deps.mediaLinks,
    }),
  );
  return service;
}
