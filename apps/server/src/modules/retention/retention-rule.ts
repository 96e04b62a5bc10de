import type { NativePackageType, RetentionRule } from '@release/contract';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionCandidate {
  id: number;
  nativePackageType: NativePackageType;
  indexNo: number;
  createTime: number;
  /** 保留: never removed by the rule. */
  pinned: boolean;
  /** Bound to a workflow snapshot (or the item of a package workflow a snapshot binds): never removed by the rule. */
  bound: boolean;
}

/**
 * The builds a rule removes, oldest first. Per platform, newest first: the newest always stays, then the first
 * `keepLast`, then any newer than `keepDays` days; pinned and bound builds stay whatever their place. Pure, so the
 * dry run and the schedule decide alike.
 */
export function buildsToRemove(
  builds: readonly RetentionCandidate[],
  rule: Pick<RetentionRule, 'keepLast' | 'keepDays'>,
  now: number,
): RetentionCandidate[] {
  const youngerThan = now - rule.keepDays * DAY_MS;
  const byPlatform = new Map<NativePackageType, RetentionCandidate[]>();
  for (const build of builds) {
    const list = byPlatform.get(build.nativePackageType) ?? [];
    list.push(build);
    byPlatform.set(build.nativePackageType, list);
  }
  const leaving: RetentionCandidate[] = [];
  for (const list of byPlatform.values()) {
    list.sort((a, b) => b.indexNo - a.indexNo);
    list.forEach((build, place) => {
      const kept =
        place < Math.max(1, rule.keepLast) ||
        (rule.keepDays > 0 && build.createTime > youngerThan) ||
        build.pinned ||
        build.bound;
      if (!kept) leaving.push(build);
    });
  }
  return leaving.sort((a, b) => a.indexNo - b.indexNo);
}
