import type { RepoHostRules } from '@release/contract';
import { z } from 'zod';
import { jsonColumn } from '../../db/json-column.ts';
import { AppError } from '../../http/app-error.ts';
import { invalidHostRules, NO_HOST_RULES, type HostRules } from '../../integrations/repo-access/host-rules.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SettingsRepository } from './settings.repository.ts';

const REPO_HOSTS_KEY = 'repo.hostRules';

/** A stored list: its strings (anything else in it, or a list that is not one, reads as nothing). */
const hostList = z
  .array(z.unknown())
  .catch([])
  .transform((list) => list.filter((v): v is string => typeof v === 'string'));
/** The stored rules; a value that is no object (or no JSON) reads as no rules, reported once (CORRUPT_JSON_COLUMN). */
const storedHostRules = jsonColumn(
  `settings.${REPO_HOSTS_KEY}`,
  z.union([z.object({ allow: hostList, deny: hostList }), z.null().transform(() => NO_HOST_RULES)]),
  { fallback: () => NO_HOST_RULES },
);

/** The admin's allow and deny lists of repository hosts (设置 → 系统), kept in the settings table. */
export function createRepoHostsService(deps: { settings: SettingsRepository; clock: Clock }) {
  const { settings, clock } = deps;
  async function read(): Promise<HostRules> {
    const stored = await settings.get(REPO_HOSTS_KEY);
    return stored === undefined ? NO_HOST_RULES : storedHostRules.decode(stored);
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
      await settings.set(REPO_HOSTS_KEY, storedHostRules.encode(rules), clock.now());
      return rules;
    },
  };
}
export type RepoHostsService = ReturnType<typeof createRepoHostsService>;
