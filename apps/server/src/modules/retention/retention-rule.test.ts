import { describe, expect, it } from 'vitest';
import { buildsToRemove, type RetentionCandidate } from './retention-rule.ts';

const DAY = 24 * 60 * 60 * 1000;
const MB = 1024 * 1024;
const NOW = Date.UTC(2026, 10, 27);
const build = (
  id: number,
  type: RetentionCandidate['nativePackageType'],
  daysAgo: number,
  extra: Partial<RetentionCandidate> = {},
) => ({
  id,
  nativePackageType: type,
  indexNo: id,
  createTime: NOW - daysAgo * DAY,
  appSize: MB,
  expireDate: null,
  pinned: false,
  bound: false,
  ...extra,
});
const ids = (list: RetentionCandidate[]) => list.map((b) => b.id);

describe('the builds a retention rule removes', () => {
  it('keeps the last N of each platform and removes the older ones, oldest first', () => {
    const builds = [1, 2, 3, 4, 5]
      .map((id) => build(id, 'android', 100 - id))
      .concat([build(6, 'ios', 90), build(7, 'ios', 80)]);
    expect(ids(buildsToRemove(builds, { keepLast: 2, keepDays: 0, quotaMb: 0 }, NOW))).toEqual([1, 2, 3]);
  });

  it('keeps builds newer than D days even beyond N, and always the newest of each platform', () => {
    const builds = [build(1, 'android', 40), build(2, 'android', 20), build(3, 'android', 10), build(4, 'web', 400)];
    expect(ids(buildsToRemove(builds, { keepLast: 1, keepDays: 30, quotaMb: 0 }, NOW))).toEqual([1]);
    // The only web build is its platform's newest: it stays however old.
    expect(ids(buildsToRemove(builds, { keepLast: 1, keepDays: 0, quotaMb: 0 }, NOW))).toEqual([1, 2]);
  });

  it('never removes a pinned (保留) build or one bound to a snapshot', () => {
    const builds = [
      build(1, 'ios', 50, { pinned: true }),
      build(2, 'ios', 40, { bound: true }),
      build(3, 'ios', 30),
      build(4, 'ios', 1),
    ];
    expect(ids(buildsToRemove(builds, { keepLast: 1, keepDays: 0, quotaMb: 0 }, NOW))).toEqual([3]);
  });

  it('over a quota removes expired-profile builds first, then the oldest, never the newest, pinned or bound ones', () => {
    const builds = [
      build(1, 'ios', 60, { pinned: true }),
      build(2, 'ios', 50, { bound: true }),
      build(3, 'ios', 40),
      build(4, 'ios', 30, { expireDate: NOW - DAY }),
      build(5, 'ios', 20),
      build(6, 'ios', 10, { expireDate: NOW - DAY }),
      build(7, 'android', 100),
      build(8, 'ios', 1, { expireDate: NOW - DAY }),
    ];
    const rule = { keepLast: 1000, keepDays: 0 };
    // 8 MB stay under the rule alone; 5 MB allowed: 4 and 6 (expired) go, then 3 (the oldest left).
    const going = buildsToRemove(builds, { ...rule, quotaMb: 5 }, NOW);
    expect(going.map((b) => [b.id, b.reason])).toEqual([
      [3, 'quota'],
      [4, 'quota'],
      [6, 'quota'],
    ]);
    // However small the quota, the newest of each platform (7, 8), pinned (1) and bound (2) stay.
    expect(ids(buildsToRemove(builds, { ...rule, quotaMb: 1 }, NOW))).toEqual([3, 4, 5, 6]);
    expect(ids(buildsToRemove(builds, { ...rule, quotaMb: 0 }, NOW))).toEqual([]);
    // The rule's own removals count first: they may bring the app under the quota by themselves.
    const byRule = buildsToRemove(builds, { keepLast: 3, keepDays: 0, quotaMb: 6 }, NOW);
    expect(byRule.map((b) => [b.id, b.reason])).toEqual([
      [3, 'rule'],
      [4, 'rule'],
    ]);
  });
});
