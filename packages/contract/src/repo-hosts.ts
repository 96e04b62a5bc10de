import { z } from 'zod';

/** 设置 → 系统 → 仓库主机: host names, `*.domain`, IP addresses or CIDR blocks, one per entry. */
const hostEntries = z.array(z.string().trim().min(1).max(253)).max(200);

/** Which repository hosts the server may reach: allow lifts the refusal of private addresses, deny beats allow. */
export const repoHostRules = z.object({ allow: hostEntries, deny: hostEntries });
export type RepoHostRules = z.infer<typeof repoHostRules>;
