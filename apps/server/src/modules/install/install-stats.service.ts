import { createHash } from 'node:crypto';
import { INSTALL_STATS_DAYS, type InstallStats, type VersionCounts, type VersionHolders } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { deviceOfAgent } from '../../lib/device-of-agent.ts';
import type { Logger } from '../../lib/logger.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { VersionsRepository } from '../versions/versions.repository.ts';
import type { InstallService } from './install.service.ts';
import type { InstallStatsRepository } from './install-stats.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

export interface StatsVisit {
  viewer: AuthUser | null;
  token?: string;
  ip: string;
  userAgent?: string;
}

/**
 * Install statistics (issue 20): a download (the page reports it) or an OTA install (the iOS installer fetches the
 * signed manifest) is counted once per device per UTC day. The device is the signed-in user, else the page's own id,
 * else a digest of address and User-Agent. Nothing leaves the server.
 */
export function createInstallStatsService(deps: {
  stats: InstallStatsRepository;
  install: Pick<InstallService, 'visitorTarget'>;
  versions: Pick<VersionsRepository, 'findById'>;
  policy: AppsPolicy;
  clock: Clock;
  logger: Logger;
}) {
  const { stats, policy, clock } = deps;

  function deviceKey(visit: { viewer: AuthUser | null; ip: string; userAgent?: string }, device?: string): string {
    if (visit.viewer) return `u${visit.viewer.userId}`;
    if (device) return `d${device}`;
    return `a${createHash('sha256')
      .update(`${visit.ip}\n${visit.userAgent ?? ''}`)
      .digest('base64url')
      .slice(0, 32)}`;
  }

  function row(
    appId: number,
    versionId: number,
    kind: 'download' | 'install',
    key: string,
    userId: number | null,
    ua?: string,
  ) {
    const agent = deviceOfAgent(ua);
    const now = clock.now();
    return {
      app_id: appId,
      version_id: versionId,
      kind,
      day: dayOf(now),
      device_key: key,
      user_id: userId,
      device_family: agent.family,
      os_version: agent.os,
      create_time: now,
    };
  }

  return {
    /** The page says a build was downloaded: counted when the visitor may open the link (as the page itself). */
    async downloaded(body: { url: string; versionId: number; device?: string }, visit: StatsVisit): Promise<void> {
      const target = await deps.install.visitorTarget(body.url, body.versionId, visit);
      if (!target.version) return;
      await stats.record([
        row(
          target.app.id,
          body.versionId,
          'download',
          deviceKey(visit, body.device),
          visit.viewer?.userId ?? null,
          visit.userAgent,
        ),
      ]);
    },

    /** The iOS installer fetched a build's manifest: counted without holding the answer (a failure is logged). */
    installStarted(version: { id: number; app_id: number }, device: string | undefined, visit: StatsVisit): void {
      const key = deviceKey({ viewer: null, ip: visit.ip, userAgent: visit.userAgent }, device);
      void stats
        .record([row(version.app_id, version.id, 'install', key, null, visit.userAgent)])
        .catch((err: unknown) => deps.logger.warn({ err }, 'counting an OTA install failed'));
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

    /** Who has a build (editors of its app and admins): the signed-in users, and the devices counted. */
    async holders(user: AuthUser, versionId: number): Promise<VersionHolders> {
      const version = await deps.versions.findById(versionId);
      if (!version) throw AppError.notFound('版本不存在');
      await policy.assertCanEdit(user, version.app_id);
      const [users, devices] = await Promise.all([stats.holdersOf(versionId), stats.devicesOf(versionId)]);
      return {
        versionId,
        users: users.map((u) => ({ userId: Number(u.userId), username: u.username, lastTime: Number(u.lastTime) })),
        devices: devices.map((d) => ({ family: d.device_family, os: d.os_version, count: Number(d.n) })),
      };
    },
  };
}
export type InstallStatsService = ReturnType<typeof createInstallStatsService>;
