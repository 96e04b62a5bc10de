import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ZsignMessages } from '@release/contract';
import { defineJob, JobFailure, type JobRun } from '../../jobs/job-definition.ts';
import { AppError } from '../../http/app-error.ts';
import { PackageInspectionError } from '@release/inspect';
import type { Clock } from '../../lib/clock.ts';
import { ChainError } from '../../signing/certificate-chain.ts';
import { BundleSigningError } from '../../signing/bundle-signer.ts';
import { profileFor } from '../../signing/entitlements.ts';
import { IpaArchiveError } from '../../signing/ipa-archive.ts';
import { resignIpa, VerificationError } from '../../signing/ipa-resigner.ts';
import type { ResignChange } from '../../signing/resign-options.ts';
import { MachOError } from '../../signing/macho.ts';
import { SigningError } from '../../signing/macho-signer.ts';
import type { ConfiguredBlobStore } from '../../storage/create-blob-store.ts';
import { withLocalFile } from '../../storage/local-copy.ts';
import type { CertificatesService } from '../certificates/certificates.service.ts';
import type { PackageRegistrationService } from '../publish/package-registration.service.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import type { UsersLookup } from './zsign.service.ts';
import type { ZsignRepository } from './zsign.repository.ts';
import type { Logger } from '../../lib/logger.ts';

export interface ZsignJobDeps {
  resigns: ZsignRepository;
  versions: VersionsDirectory;
  certificates: CertificatesService;
  registration: PackageRegistrationService;
  users: UsersLookup;
  blobs: ConfiguredBlobStore;
  clock: Clock;
  /** Told whenever a re-signing moves (progress, end), so a waiting request answers at once. */
  notify(id: number): void;
  logger?: Logger;
  /** Where a run writes its working copy of the re-signed ipa (the system temp folder by default). */
  workDir?: string;
}

/** `Demo 1.0.ipa` → `Demo 1.0-resigned.ipa` (the download name); the blob key keeps to safe characters. */
export function resignedFileName(fileName: string): string {
  const base = fileName.replace(/\.ipa$/i, '');
  return `${base}-resigned.ipa`;
}
export const resignedKey = (id: number) => `packages/resigned/${id}/resigned.ipa`;
/** One change of the options as the new version's note says it. */
function changeText(change: ResignChange): string {
  const from = (value: string | null) => value ?? '无';
  switch (change.what) {
    case 'bundleId':
      return `Bundle ID：${from(change.from)} → ${change.to}`;
    case 'displayName':
      return `显示名称：${from(change.from)} → ${change.to}`;
    case 'version':
      return `版本号：${from(change.from)} → ${change.to}`;
    case 'build':
      return `构建号：${from(change.from)} → ${change.to}`;
    case 'watchApp':
      return '移除 Watch 应用';
    case 'extensions':
      return '移除扩展';
    case 'supportedDevices':
      return '移除 UISupportedDevices';
    case 'codeDirectories':
      return `按最低系统版本选择代码目录：${change.to}`;
    case 'entitlements':
      return `Entitlements：使用给定的（${change.to} 项）`;
  }
}

/** How often a running re-signing renews its lease (the lease is 2 min). */
const LEASE_RENEW_MS = 30_000;

/** What the user is told when re-signing cannot succeed, however often it is tried. */
function permanentFailure(error: unknown, log: ZsignJobDeps['logger']): JobFailure | null {
  if (error instanceof BundleSigningError) {
    if (error.reason === 'noProfile') return JobFailure.permanent(ZsignMessages.noProfile(error.bundleId ?? '主应用'));
    if (error.reason === 'entitlements')
      return JobFailure.permanent(ZsignMessages.entitlementsOutsideProfile(error.message));
    return JobFailure.permanent(
      ZsignMessages.badPackage(error.reason === 'noApp' ? '没有找到 Payload/*.app' : error.message),
    );
  }
  if (error instanceof SigningError)
    return JobFailure.permanent(
      error.reason === 'encrypted' ? ZsignMessages.encrypted : ZsignMessages.badPackage(error.message),
    );
  if (error instanceof ChainError) return JobFailure.permanent(ZsignMessages.chainIncomplete(error.issuer));
  if (error instanceof MachOError) return JobFailure.permanent(ZsignMessages.badPackage(error.message));
  if (error instanceof IpaArchiveError || error instanceof PackageInspectionError)
    return JobFailure.permanent(ZsignMessages.badPackage(error.message));
  if (error instanceof VerificationError) {
    log?.error({ failures: error.failures }, 're-signed ipa failed verification');
    return JobFailure.permanent(ZsignMessages.verifyFailed);
  }
  if (error instanceof AppError && error.status === 404) return JobFailure.permanent(error.message);
  return null;
}

export function createZsignJob(deps: ZsignJobDeps) {
  const { resigns, versions, clock } = deps;

  async function resign(id: number, run: JobRun): Promise<{ versionId: number }> {
    const row = await resigns.find(id);
    if (!row) throw JobFailure.permanent(ZsignMessages.jobNotFound);
    const { options } = row;
    if (!options) throw JobFailure.permanent(ZsignMessages.optionsUnreadable);
    const key = resignedKey(id);
    // A run that stored and registered the version before its process died is finished, not redone.
    const made = await versions.findByFileKey(key);
    if (made) return { versionId: made.id };
    const source = await versions.findById(row.source_version_id);
    if (!source || source.app_id !== row.app_id) throw JobFailure.permanent(ZsignMessages.versionNotFound);
    await resigns.update(id, {
      status: 'running',
      stage: 'read',
      progress: 0,
      bytes_done: 0,
      bytes_total: 0,
      error: null,
      update_time: clock.now(),
    });
    deps.notify(id);
    const identity = await deps.certificates.loadSigningIdentity(row.certificate_id);
    let writes = Promise.resolve();
    let renewedAt = Date.now();
    const progress = (stage: 'read' | 'sign' | 'write' | 'verify' | 'store', percent: number, done = 0, total = 0) => {
      writes = writes
        .then(() => resigns.progress(id, stage, Math.min(percent, 99), { done, total }, clock.now()))
        .then(
          () => deps.notify(id),
          () => undefined,
        );
      // A large ipa takes longer than the queue's lease: keep it, so no other process starts the same run.
      if (Date.now() - renewedAt >= LEASE_RENEW_MS) {
        renewedAt = Date.now();
        writes = writes
          .then(() => run.renewLease?.())
          .then(
            () => undefined,
            () => undefined,
          );
      }
    };
    // On the local store the work happens on the objects' disk, so the result moves in without a copy.
    const workRoot = deps.workDir ?? (deps.blobs.kind === 'local' ? deps.blobs.scratchDir : os.tmpdir());
    await fsp.mkdir(workRoot, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(workRoot, 'release-resign-'));
    let changes: ResignChange[] = [];
    try {
      const output = path.join(dir, 'resigned.ipa');
      // A profile that ran out since its upload would make a package that does not install: only current ones sign.
      const now = clock.now();
      const expiry = (p: (typeof identity.profiles)[number]) => p.profile.expiresAt?.getTime() ?? Infinity;
      const current = identity.profiles.filter((p) => expiry(p) > now);
      const result = await withLocalFile(deps.blobs, source.file_key, (sourcePath) =>
        resignIpa(
          sourcePath,
          output,
          {
            certificate: identity.certificateDer,
            chain: identity.chain,
            privateKey: identity.privateKey,
            profiles: current,
            signingTime: new Date(now),
          },
          progress,
          options,
        ),
      ).catch((error: unknown) => {
        // Missing only because it expired: say which profile, not that none was uploaded.
        const stale = identity.profiles.filter((p) => expiry(p) <= now);
        const expired =
          error instanceof BundleSigningError && error.reason === 'noProfile' && error.bundleId
            ? profileFor(stale, error.bundleId)
            : null;
        throw expired ? JobFailure.permanent(ZsignMessages.profileExpired(expired.name, expiry(expired))) : error;
      });
      changes = result.changes;
      progress('store', 99);
      await writes;
      // Another process that took the run over (a lease outlived) may have finished first: its version stands.
      const finished = await versions.findByFileKey(key);
      if (finished) return { versionId: finished.id };
      if (deps.blobs.kind === 'local') await deps.blobs.adopt(key, output);
      else await deps.blobs.put(key, fs.createReadStream(output), { contentType: 'application/octet-stream' });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
    const label =
      [source.app_version, source.build ? `(${source.build})` : null].filter(Boolean).join(' ') ||
      `#${source.index_no}`;
    const user = await deps.users.findById(row.user_id);
    const version = await deps.registration.registerStoredPackage(
      { userId: row.user_id, username: user?.username ?? '' },
      {
        appId: row.app_id,
        fileKey: key,
        fileName: resignedFileName(source.file_name),
        description:
          ZsignMessages.note(`#${source.index_no} ${label}`, row.certificate_name) +
          ZsignMessages.changes(changes.map(changeText)),
      },
    );
    return { versionId: version.id };
  }

  return defineJob({
    kind: 'zsign.resign',
    payload: z.object({ resignId: z.number().int() }),
    maxAttempts: 3,
    async run(payload, job) {
      try {
        return await resign(payload.resignId, job);
      } catch (error) {
        if (error instanceof JobFailure) throw error;
        throw permanentFailure(error, deps.logger) ?? error;
      }
    },
    async settle(trx, payload, outcome) {
      const now = clock.now();
      if (outcome.status === 'done') {
        await resigns.update(
          payload.resignId,
          {
            status: 'done',
            stage: 'done',
            progress: 100,
            error: null,
            result_version_id: outcome.result.versionId,
            update_time: now,
          },
          trx,
        );
      } else if (outcome.status === 'retry') {
        // Tried again later from the start; nothing of this run was kept as a version.
        await resigns.update(
          payload.resignId,
          { status: 'pending', stage: 'queued', progress: 0, error: ZsignMessages.retrying, update_time: now },
          trx,
        );
      } else {
        await resigns.update(
          payload.resignId,
          {
            status: 'failed',
            error: outcome.failure.retryable ? ZsignMessages.failed : outcome.failure.message,
            update_time: now,
          },
          trx,
        );
      }
    },
    async afterCommit(payload, outcome) {
      // A run that stored the ipa and then failed (the store's answer lost, registration refused) leaves no orphan. Only
      // once the failure is committed: a delete inside the transaction could outlive its rollback and leave a run that
      // goes on (or a version) without its file; a crash here leaves only an unused file.
      if (outcome.status === 'failed') {
        const key = resignedKey(payload.resignId);
        if (!(await resigns.hasVersionWithFile(key))) {
          await deps.blobs
            .delete(key)
            .catch((error: unknown) =>
              deps.logger?.error({ err: error, key }, 'removing the file of a failed re-signing failed'),
            );
        }
      }
      // The waiting request reads the outcome.
      deps.notify(payload.resignId);
    },
  });
}
export type ZsignJob = ReturnType<typeof createZsignJob>;
