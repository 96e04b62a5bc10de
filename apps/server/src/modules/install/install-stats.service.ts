import { INSTALL_STATS_DAYS, type InstallStats, type VersionCounts, type VersionHolders } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { deviceOfAgent } from '../../lib/device-of-agent.ts';
import type { Logger } from '../../lib/logger.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { VersionsRepository } from '../versions/versions.repository.ts';
import { installDeviceKey } from './install-device.ts';
import type { InstallStatsRepository } from './install-stats.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Who fetched a build: the signed-in user a signed link names, the page's device id, address and User-Agent. */
export interface StatsVisit {
  userId: number | null;
  device: string | null;
  ip: string;
  userAgent?: string;
}

/**
 * Install statistics (issue 20): a package download from the install page (the server's signed download, module and
 * open routes) or an OTA install (the iOS / HarmonyOS installer fetching the signed manifest) is counted once per
 * device per UTC day (install-device.ts says which device). Nothing leaves the server.
 */
export function createInstallStatsService(deps: {
  stats: InstallStatsRepository;
  versions: Pick<VersionsRepository, 'findById'>;
  policy: AppsPolicy;
  clock: Clock;
  logger: Logger;
}) {
  const { stats, policy, clock } = deps;

  return {
    /**
     * Counts a download or an install of a build; a repeat of the device that day is no new row. Never fails the
     * request it is part of: a failed write is logged.
     */
    async count(kind: 'download' | 'install', version: { id: number; app_id: number }, visit: StatsVisit) {
      const agent = deviceOfAgent(visit.userAgent);
      const now = clock.now();
      await stats
        .record([
          {
            app_id: version.app_id,
            version_id: version.id,
            kind,
            day: dayOf(now),
            device_key: installDeviceKey(visit),
            user_id: visit.userId,
            device_family: agent.family,
            os_version: agent.os,
            create_time: now,
          },
        ])
        .catch((err: unknown) => deps.logger.warn({ err, kind }, 'counting a download or install failed'));
    },

    async ofApp(user: AuthUser, appId: number, days = INSTALL_STATS_DAYS): Promise<InstallStats> {
      await policy.assertCanView(user, appId);
      const now = clock.now();
      const from = dayOf(now - (days - 1) * DAY_MS);
      const [perDay, perVersion] = await Promise.all([stats.daily(appId, from), stats.countsOfApp(appId)]);
      const daily = Array.from({ length: days }, (_, i) => {
        const day = dayOf(now - (days - 1 - i) * DAY_MS);
        const count = (kind: string) => Number(perDay.find((r) => r.day === day && r.kind === kind)?.n ?? 0);
        return { day, downloads: count('download'), installs: count('install') };
      });
      const versions = new Map<number, VersionCounts>();
      for (const r of perVersion) {
        const id = Number(r.version_id);
        const entry = versions.get(id) ?? { versionId: id, downloads: 0, installs: 0 };
        if (r.kind === 'download') entry.downloads = Number(r.n);
        else entry.installs = Number(r.n);
        versions.set(id, entry);
      }
      return { appId, daily, versions: [...versions.values()] };
    },

    /** Who has a build (those who may view its app): the signed-in users with their devices, and the devices counted. */
    async holders(user: AuthUser, versionId: number): Promise<VersionHolders> {
      const version = await deps.versions.findById(versionId);
      if (!version) throw AppError.notFound('版本不存在');
      await policy.assertCanView(user, version.app_id);
      const [users, devices] = await Promise.all([stats.holdersOf(versionId), stats.devicesOf(versionId)]);
      return {
        versionId,
        users: users.map((u) => ({
          userId: Number(u.userId),
          username: u.username,
          family: u.family,
          os: u.os,
          lastTime: Number(u.lastTime),
        })),
        devices: devices.map((d) => ({ family: d.device_family, os: d.os_version, count: Number(d.n) })),
      };
    },
  };
}
export type InstallStatsService = ReturnType<typeof createInstallStatsService>;
