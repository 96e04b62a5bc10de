import { createHash, randomBytes } from 'node:crypto';
import {
  DEVICE_ENROLL_PER_APP_HOUR,
  DEVICE_ENROLL_RESULT_PATH,
  DEVICE_ENROLL_TTL_MS,
  DEVICE_NAME_MAX_LENGTH,
  DeviceEnrollMessages,
  normalizeUdid,
  type DeviceEnrollLink,
  type DeviceEnrollResult,
  type InstallEnrollBody,
} from '@release/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UrlSigner } from '../../storage/url-signer.ts';
import type { AppsLookup } from '../apps/apps-directory.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { DevicesDirectory } from '../devices/devices-directory.ts';
import { readDeviceAnswer } from './device-answer.ts';
import type { DeviceEnrollRepository } from './device-enroll.repository.ts';
import { buildProfileServiceConfig, signMobileconfig, type ProfileSigner } from './mobileconfig.ts';

export const PROFILE_PATH = '/api/device_enroll/profile.mobileconfig';
export const CALLBACK_PATH = '/api/device_enroll/callback';
export const DEVICE_ANSWER_TYPE = 'application/pkcs7-signature';

const HOUR_MS = 60 * 60 * 1000;
const hashChallenge = (challenge: string) => createHash('sha256').update(challenge).digest('hex');
const cutName = (name: string) => [...name].slice(0, DEVICE_NAME_MAX_LENGTH).join('');

export interface DeviceEnrollDeps {
  enrollments: DeviceEnrollRepository;
  devices: DevicesDirectory;
  apps: AppsLookup;
  /** Whether an install page token (`app-version-token`) opens this app's page: the visitor knows the password. */
  isInstallTokenValid: (token: string | undefined, app: { id: number; password: string }) => boolean;
  signer: UrlSigner;
  clock: Clock;
  /** Signs the served profile when a server identity is configured; unsigned otherwise. */
  profileSigner: ProfileSigner | null;
}

/**
 * Self-service device registration through Apple's Profile Service: a one-time challenge in a
 * `.mobileconfig`, the device's signed answer at the callback, the UDID stored as a device.
 */
export function createDeviceEnrollService(deps: DeviceEnrollDeps) {
  const { enrollments, devices, apps, signer, clock } = deps;

  async function start(
    owner: { userId: number | null; appId: number | null; versionId: number | null },
    base: string,
  ): Promise<DeviceEnrollLink> {
    const challenge = randomBytes(24).toString('base64url');
    const now = clock.now();
    const expireTime = now + DEVICE_ENROLL_TTL_MS;
    // Housekeeping on the way: links never used and expired for a day are of no use to anyone.
    await enrollments.deleteStale(now - 24 * HOUR_MS);
    await enrollments.insert({
      challenge_hash: hashChallenge(challenge),
      user_id: owner.userId,
      app_id: owner.appId,
      version_id: owner.versionId,
      create_time: now,
      expire_time: expireTime,
    });
    return { profileUrl: `${base}${PROFILE_PATH}?c=${challenge}`, expireTime };
  }

  /** The registration behind a challenge, refused when unknown, used or expired. */
  async function usable(challenge: string) {
    const row = await enrollments.findByChallengeHash(hashChallenge(challenge));
    if (!row) throw AppError.notFound(DeviceEnrollMessages.linkMissing);
    if (row.used_time !== null) throw AppError.conflict(DeviceEnrollMessages.linkUsed);
    if (row.expire_time <= clock.now()) throw AppError.badRequest(DeviceEnrollMessages.linkExpired);
    return row;
  }

  /** The callback of the profile served for enrollment `id`: `?s=<id>.<signature>` names it before any body is read. */
  function callbackUrl(id: number, base: string): string {
    return `${base}${CALLBACK_PATH}?s=${id}.${signer.sign(['device-enroll-callback', id])}`;
  }

  /** The registration a callback's `s` names, refused when forged, unknown, used or expired: checked before the body is parsed. */
  async function namedByState(state: string | undefined) {
    const match = /^(\d{1,15})\.([\w-]{1,128})$/.exec(state ?? '');
    const id = match ? Number(match[1]) : 0;
    if (!match || !signer.verify(['device-enroll-callback', id], match[2] as string))
      throw AppError.notFound(DeviceEnrollMessages.linkMissing);
    const row = await enrollments.findById(id);
    if (!row) throw AppError.notFound(DeviceEnrollMessages.linkMissing);
    if (row.used_time !== null) throw AppError.conflict(DeviceEnrollMessages.linkUsed);
    if (row.expire_time <= clock.now()) throw AppError.badRequest(DeviceEnrollMessages.linkExpired);
    return row;
  }

  function resultLocation(id: number, base: string): string {
    return `${base}${DEVICE_ENROLL_RESULT_PATH}?id=${id}&sig=${signer.sign(['device-enroll', id])}`;
  }

  return {
    /** A registration for the signed-in user's own device. */
    startForUser: (user: AuthUser, base: string) => start({ userId: user.userId, appId: null, versionId: null }, base),

    /** A registration started from an install page: the visitor proved the install password (page token). */
    async startForInstall(body: InstallEnrollBody, token: string | undefined, base: string): Promise<DeviceEnrollLink> {
      const app = await apps.findByPath(body.url);
      if (!app) throw AppError.notFound(DeviceEnrollMessages.linkMissing);
      if (!deps.isInstallTokenValid(token, app)) throw AppError.noPermission('请先输入安装密码打开安装页');
      if ((await enrollments.countForAppSince(app.id, clock.now() - HOUR_MS)) >= DEVICE_ENROLL_PER_APP_HOUR)
        throw AppError.tooManyRequests(DeviceEnrollMessages.tooManyTries);
      return start({ userId: null, appId: app.id, versionId: body.versionId ?? null }, base);
    },

    /** The `.mobileconfig` for a challenge: signed (DER CMS) when a server identity is configured. */
    async profile(challenge: string, base: string): Promise<{ body: Buffer; signed: boolean }> {
      const enrollment = await usable(challenge);
      const xml = buildProfileServiceConfig({
        callbackUrl: callbackUrl(enrollment.id, base),
        challenge,
        host: new URL(base).host,
      });
      if (!deps.profileSigner) return { body: Buffer.from(xml, 'utf8'), signed: false };
      return { body: signMobileconfig(xml, deps.profileSigner, new Date(clock.now())), signed: true };
    },

    /**
     * The device's answer: stores its UDID once per challenge and says where to send Safari. What is cheap comes
     * first (type, the registration named by the URL's `s`); only then is the body (≤ 64 KB) parsed, within the
     * plist and DER limits, and its challenge must be that registration's.
     */
    async receive(
      body: unknown,
      contentType: string | undefined,
      state: string | undefined,
      base: string,
    ): Promise<string> {
      if ((contentType ?? '').split(';')[0]?.trim().toLowerCase() !== DEVICE_ANSWER_TYPE || !Buffer.isBuffer(body)) {
        throw AppError.badRequest(DeviceEnrollMessages.contentType);
      }
      const named = await namedByState(state);
      const answer = readDeviceAnswer(body);
      if (!answer) throw AppError.badRequest(DeviceEnrollMessages.bodyUnreadable);
      if (!answer.challenge) throw AppError.badRequest(DeviceEnrollMessages.challengeMissing);
      const udid = normalizeUdid(answer.udid, 'ios');
      if (!udid) throw AppError.badRequest(DeviceEnrollMessages.udidMissing);
      if (hashChallenge(answer.challenge) !== named.challenge_hash)
        throw AppError.notFound(DeviceEnrollMessages.linkMissing);
      const enrollment = await usable(answer.challenge);
      const now = clock.now();
      if (!(await enrollments.claim(enrollment.id, now))) throw AppError.conflict(DeviceEnrollMessages.linkUsed);

      let outcome: 'registered' | 'known' = 'known';
      if (!(await devices.findByUdid(udid))) {
        const app = enrollment.app_id ? await apps.findById(enrollment.app_id) : undefined;
        const product = answer.product ?? 'iOS 设备';
        const owner = enrollment.username;
        try {
          await devices.insert({
            udid,
            device_name: cutName(owner ? `${owner} 的 ${product}` : app ? `${product}（${app.app_name}）` : product),
            platform: 'ios',
            model: answer.product,
            remark: owner ? '自助注册' : `安装页自助注册${app ? `（${app.app_name}）` : ''}`,
            // A signed-in user's own phone is theirs; an install page visitor's waits for an admin's 确认.
            review_status: owner ? 'confirmed' : 'pending',
            user_id: enrollment.user_id,
            create_by: enrollment.user_id,
            create_time: now,
            update_time: now,
          });
          outcome = 'registered';
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
      }
      await enrollments.update(enrollment.id, {
        udid,
        product: answer.product,
        os_version: answer.version,
        serial: answer.serial,
        outcome,
      });
      return resultLocation(enrollment.id, base);
    },

    /** What the result page shows; the signed link is the permission. */
    async result(id: number, sig: string): Promise<DeviceEnrollResult> {
      const row = signer.verify(['device-enroll', id], sig) ? await enrollments.findById(id) : undefined;
      if (!row?.udid || !row.outcome) throw AppError.notFound(DeviceEnrollMessages.resultMissing);
      return {
        udid: row.udid,
        product: row.product,
        osVersion: row.os_version,
        serial: row.serial,
        outcome: row.outcome,
        app: row.appName && row.appPath ? { appName: row.appName, path: row.appPath } : null,
        versionId: row.version_id,
      };
    },
  };
}
export type DeviceEnrollService = ReturnType<typeof createDeviceEnrollService>;
