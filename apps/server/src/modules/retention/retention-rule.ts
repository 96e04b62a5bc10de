import type { NativePackageType, RetentionRule } from '@release/contract';

const DAY_MS = 24 * 60 * 60 * 1000;
const MB = 1024 * 1024;

export interface RetentionCandidate {
  id: number;
  nativePackageType: NativePackageType;
  indexNo: number;
  createTime: number;
  /** The package's bytes (what a quota counts). */
  appSize: number;
  /** When the build's signing profile or certificate expires (null: never, or not an iOS build). */
  expireDate: number | null;
  /** 保留: never removed by the rule. */
  pinned: boolean;
  /** Bound to a workflow snapshot (or the item of a package workflow a snapshot binds): never removed by the rule. */
  bound: boolean;
}

/** Why a build goes: outside the rule's N and D, or to bring the app under its quota. */
export type RemovalReason = 'rule' | 'quota';

/**
 * The builds a rule removes, oldest first. Per platform, newest first: the newest always stays, then the first
 * `keepLast`, then any newer than `keepDays` days; pinned and bound builds stay whatever their place. When what stays
 * is still over `quotaMb` (0: no quota), more go until it is not: builds whose profile has expired first, then the
 * oldest — never the newest of a platform, a pinned or a bound one. Pure, so the dry run and the schedule decide alike.
 */
export function buildsToRemove<B extends RetentionCandidate>(
  builds: readonly B[],
  rule: Pick<RetentionRule, 'keepLast' | 'keepDays' | 'quotaMb'>,
  now: number,
): Array<B & { reason: RemovalReason }> {
  const youngerThan = now - rule.keepDays * DAY_MS;
  const byPlatform = new Map<NativePackageType, B[]>();
  for (const build of builds) {
    const list = byPlatform.get(build.nativePackageType) ?? [];
    list.push(build);
    byPlatform.set(build.nativePackageType, list);
  }
  const leaving: Array<B & { reason: RemovalReason }> = [];
  const protectedIds = new Set<number>();
  for (const list of byPlatform.values()) {
    list.sort((a, b) => b.indexNo - a.indexNo);
    list.forEach((build, place) => {
      if (place === 0 || build.pinned || build.bound) protectedIds.add(build.id);
      const kept =
        place < Math.max(1, rule.keepLast) ||
        (rule.keepDays > 0 && build.createTime > youngerThan) ||
        build.pinned ||
        build.bound;
      if (!kept) leaving.push({ ...build, reason: 'rule' });
    });
  }
  const quota = rule.quotaMb * MB;
  if (quota > 0) {
    const gone = new Set(leaving.map((b) => b.id));
    const staying = builds.filter((b) => !gone.has(b.id));
    let total = staying.reduce((sum, b) => sum + b.appSize, 0);
    const expired = (b: B) => b.expireDate !== null && b.expireDate <= now;
    const next = staying
      .filter((b) => !protectedIds.has(b.id))
      .sort((a, b) => Number(expired(b)) - Number(expired(a)) || a.indexNo - b.indexNo);
    for (const build of next) {
      if (total <= quota) break;
      leaving.push({ ...build, reason: 'quota' });
      total -= build.appSize;
    }
  }
  return leaving.sort((a, b) => a.indexNo - b.indexNo);
}
