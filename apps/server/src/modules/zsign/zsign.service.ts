import { createHash } from 'node:crypto';
import {
  CertMessages,
  ResignOptionMessages,
  type CertificateRow,
  ZsignMessages,
  type AppVersionRow,
  type ZsignBody,
  type ZsignCertificate,
  type ZsignJob as ZsignJobView,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { CertificatesService } from '../certificates/certificates.service.ts';
import type { Links } from '../../http/links.ts';
import { versionRow } from '../versions/version-row.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import { givenEntitlements, normalizedOptions, type ResignOptions } from '../../signing/resign-options.ts';
import type { ZsignJob } from './zsign.job.ts';
import type { ResignJobRecord, ZsignRepository } from './zsign.repository.ts';

export interface UsersLookup {
  findById(id: number): Promise<{ username: string } | undefined>;
}

export interface ZsignServiceDeps {
  resigns: ZsignRepository;
  versions: VersionsDirectory;
  certificates: CertificatesService;
  policy: AppsPolicy;
  jobs: JobQueue;
  job: () => ZsignJob;
  clock: Clock;
  /** How long `/api/zsign` waits for the result before answering with the job (inside the web's 60 s). */
  waitMs: number;
  /** Whether a request runs the queue in this process at once (true), or leaves the job to the runners. */
  runOnRequest: boolean;
}

/** SPEC §5: re-signing is offered only for packages whose url contains .ipa. */
export const isIpa = (version: { file_name: string; file_key: string }) =>
  /\.ipa$/i.test(version.file_name) || version.file_key.toLowerCase().includes('.ipa');

/**
 * What makes two re-signings the same: the source version, the certificate (by its fingerprint) and the profiles it
 * signs with now (current ones, by UUID, expiry and device count: a profile made again for a new device differs), and
 * the options (normalized: keys sorted, empty ones left out).
 */
export function resignRequestKey(
  sourceVersionId: number,
  certificate: Pick<CertificateRow, 'sha1' | 'profiles'>,
  options: ResignOptions,
  now: number,
): string {
  const profiles = certificate.profiles
    .filter((profile) => profile.expireTime > now)
    .map((profile) => `${profile.uuid}/${profile.expireTime}/${profile.devices.length}`)
    .sort();
  return createHash('sha256')
    .update(JSON.stringify({ source: sourceVersionId, certificate: certificate.sha1, profiles, options }))
    .digest('hex');
}

/** `/api/zsign`: a re-signing is recorded, run as a durable job, and waited for up to `waitMs`. */
export function createZsignService(deps: ZsignServiceDeps) {
  const { resigns, versions, policy, clock } = deps;
  const waiters = new Map<number, Set<() => void>>();

  function notify(id: number) {
    for (const wake of waiters.get(id) ?? []) wake();
  }

  /** Until the run ends or `ms` pass (real time: the job runs in real time), re-reading on every notice and each second (other processes). */
  async function waitFor(id: number, ms: number): Promise<ResignJobRecord | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const row = await resigns.find(id);
      const left = deadline - Date.now();
      // A run that ended in a retry answers too: the web polls the job from there.
      const ended =
        row && (row.status === 'done' || row.status === 'failed' || (row.status === 'pending' && row.error !== null));
      if (!row || ended || left <= 0) return row;
      await new Promise<void>((resolve) => {
        const set = waiters.get(id) ?? new Set();
        waiters.set(id, set);
        const timer = setTimeout(wake, Math.min(left, 1000));
        function wake() {
          clearTimeout(timer);
          set.delete(wake);
          if (set.size === 0) waiters.delete(id);
          resolve();
        }
        set.add(wake);
      });
    }
  }

  async function view(row: ResignJobRecord, present: Links): Promise<ZsignJobView> {
    let version: AppVersionRow | null = null;
    if (row.result_version_id !== null) {
      const record = await versions.findById(row.result_version_id);
      if (record) version = await versionRow(present, record);
    }
    return {
      id: row.id,
      appId: row.app_id,
      appVersionId: row.source_version_id,
      certId: row.certificate_id,
      status: row.status,
      progress: row.progress,
      stage: row.stage,
      bytesDone: Number(row.bytes_done),
      bytesTotal: Number(row.bytes_total),
      error: row.error,
      version,
    };
  }

  return {
    notify,

    async start(actor: AuthUser, body: ZsignBody, present: Links): Promise<ZsignJobView> {
      const source = await versions.findById(body.appVersionId);
      if (!source) throw AppError.notFound(ZsignMessages.versionNotFound);
      await policy.assertCanEdit(actor, source.app_id);
      if (!isIpa(source)) throw AppError.badRequest(ZsignMessages.onlyIpa);
      const certificate = (await deps.certificates.list()).find((row) => row.id === body.certId);
      if (!certificate) throw AppError.notFound(CertMessages.certificateNotFound);
      const now = clock.now();
      // Checked at upload, but time goes on: a package signed with it now would not install.
      if (certificate.validTo <= now)
        throw AppError.badRequest(ZsignMessages.certificateExpired(certificate.name, certificate.validTo));
      // The same ask (source, certificate, its current profiles, options) answers with the run already made or
      // still going, instead of signing again; one that failed, or whose version was removed, is asked anew.
      const options = normalizedOptions(body.options);
      if (options.entitlements !== undefined && !givenEntitlements(options))
        throw AppError.badRequest(`参数错误：options.entitlements ${ResignOptionMessages.entitlements}`);
      const requestKey = resignRequestKey(source.id, certificate, options, now);
      const earlier = await resigns.findByRequest(source.app_id, requestKey);
      const reusable =
        earlier &&
        (earlier.status !== 'done' ||
          (earlier.result_version_id !== null && (await versions.findById(earlier.result_version_id))));
      if (earlier && reusable) return view((await waitFor(earlier.id, deps.waitMs)) ?? earlier, present);
      const id = await resigns.insert({
        app_id: source.app_id,
        source_version_id: source.id,
        certificate_id: certificate.id,
        certificate_name: certificate.name,
        user_id: actor.userId,
        status: 'pending',
        progress: 0,
        stage: 'queued',
        error: null,
        result_version_id: null,
        request_key: requestKey,
        options: Object.keys(options).length > 0 ? JSON.stringify(options) : null,
        create_time: now,
        update_time: now,
      });
      await deps.jobs.enqueue(deps.job(), { resignId: id }, { dedupeKey: `zsign:${id}` });
      // Run it now in this process (the runner may be asleep, or not started at all); the queue keeps it durable.
      if (deps.runOnRequest) void deps.jobs.runDue().catch(() => undefined);
      const row = await waitFor(id, deps.waitMs);
      if (!row) throw AppError.notFound(ZsignMessages.jobNotFound);
      return view(row, present);
    },

    async status(actor: AuthUser, id: number, present: Links): Promise<ZsignJobView> {
      const row = await resigns.find(id);
      if (!row) throw AppError.notFound(ZsignMessages.jobNotFound);
      await policy.assertCanEdit(actor, row.app_id);
      return view(row, present);
    },

    /** The certificates the re-sign modal offers: no secrets, no devices. */
    async certificates(): Promise<ZsignCertificate[]> {
      return (await deps.certificates.list()).map((row) => ({
        id: row.id,
        name: row.name,
        teamId: row.teamId,
        mainBundleId: row.mainBundleId,
        expireTime: row.expireTime,
        appIds: row.profiles.map((profile) => profile.appId),
      }));
    },
  };
}
export type ZsignService = ReturnType<typeof createZsignService>;
