import type { RepoHostRules } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { invalidHostRules, NO_HOST_RULES, type HostRules } from '../../integrations/repo-access/host-rules.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SettingsRepository } from './settings.repository.ts';

const REPO_HOSTS_KEY = 'repo.hostRules';

/** The admin's allow and deny lists of repository hosts (设置 → 系统), kept in the settings table. */
export function createRepoHostsService(deps: { settings: SettingsRepository; clock: Clock }) {
  const { settings, clock } = deps;
  async function read(): Promise<HostRules> {
    try {
      const stored = JSON.parse((await settings.get(REPO_HOSTS_KEY)) ?? 'null') as Partial<HostRules> | null;
      const list = (value: unknown) =>
        Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
      return stored ? { allow: list(stored.allow), deny: list(stored.deny) } : NO_HOST_RULES;
    } catch {
      return NO_HOST_RULES;
    }
  }
  return {
    read,
    async update(next: RepoHostRules): Promise<HostRules> {
      const invalid = invalidHostRules([...next.allow, ...next.deny]);
      if (invalid.length)
        throw AppError.badRequest(
          `无法识别的主机：${invalid.join('、')}（可填主机名、*.域名、IP 地址或 CIDR 网段，如 10.0.0.0/8）`,
        );
      const clean = (entries: string[]) => [...new Set(entries.map((e) => e.trim().toLowerCase()))];
      const rules = { allow: clean(next.allow), deny: clean(next.deny) };
      await settings.set(REPO_HOSTS_KEY, JSON.stringify(rules), clock.now());
      return rules;
    },
  };
}
export type RepoHostsService = ReturnType<typeof createRepoHostsService>;
