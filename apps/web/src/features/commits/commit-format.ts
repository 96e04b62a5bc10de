import dayjs from 'dayjs';
import { COMMIT_PAGE_SIZE } from '@release/contract';

/** SPEC §9: above this screen height a page holds as many 60 px rows as fit below 400 px of chrome. */
const TALL_SCREEN_PX = 2300;
const CHROME_PX = 400;
const ROW_PX = 60;
const MAX_PAGE_SIZE = 200;

/** 30 items, or ceil((height - 400) / 60) on screens taller than 2300 px. */
export function commitPageSize(screenHeight: number): number {
  if (screenHeight <= TALL_SCREEN_PX) return COMMIT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.ceil((screenHeight - CHROME_PX) / ROW_PX));
}

/** SPEC §9 dates: 今天 / 昨天 / 前天, older days as YYYY-MM-DD. */
export function dayLabel(time: number, now: number = Date.now()): string {
  const daysAgo = dayjs(now).startOf('day').diff(dayjs(time).startOf('day'), 'day');
  if (daysAgo === 0) return '今天';
  if (daysAgo === 1) return '昨天';
  if (daysAgo === 2) return '前天';
  return dayjs(time).format('YYYY-MM-DD');
}

export function clockText(time: number): string {
  return dayjs(time).format('HH:mm');
}

/** A date label plus the time, e.g. 昨天 18:20. */
export function dateTimeText(time: number, now: number = Date.now()): string {
  return `${dayLabel(time, now)} ${clockText(time)}`;
}

export interface Group<T> {
  key: string;
  label: string;
  items: T[];
}

/** Consecutive runs of items with the same key, in list order (the list is newest first). */
export function groupRuns<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  labelOf: (item: T) => string = keyOf,
): Array<Group<T>> {
  const groups: Array<Group<T>> = [];
  for (const item of items) {
    const key = keyOf(item);
    const last = groups.at(-1);
    if (last && last.key === key) last.items.push(item);
    else groups.push({ key, label: labelOf(item), items: [item] });
  }
  return groups;
}

/** Items grouped by calendar day, labelled 今天 / 昨天 / 前天 / YYYY-MM-DD. */
export function groupByDay<T extends { commitTime: number }>(
  items: readonly T[],
  now: number = Date.now(),
): Array<Group<T>> {
  return groupRuns(
    items,
    (item) => dayjs(item.commitTime).format('YYYY-MM-DD'),
    (item) => dayLabel(item.commitTime, now),
  );
}

/** Within one day: items by project (app), projects in the order they first appear. */
export function groupByProject<T extends { appName: string }>(items: readonly T[]): Array<Group<T>> {
  const groups = new Map<string, Group<T>>();
  for (const item of items) {
    const group = groups.get(item.appName);
    if (group) group.items.push(item);
    else groups.set(item.appName, { key: item.appName, label: item.appName, items: [item] });
  }
  return [...groups.values()];
}

/** What makes items copies of one commit, reached through several workflows: the same repository, id and time. */
export function commitCopyKey(item: { repoPath: string | null; commitId: string; commitTime: number }): string {
  return `${item.commitTime}\u0000${item.repoPath ?? ''}\u0000${item.commitId}`;
}

/**
 * The summary tab and the trend page list each workflow's own item (remarks and snapshots belong to it), so a commit
 * of a repository two workflows follow comes twice. Commits made in the same second are ordered by item id, which
 * would put one workflow's whole run before the other's: here every copy of a commit follows the first one shown,
 * each labelled with its tab. The list and a calendar day both show their items this way.
 */
export function sameCommitsTogether<T extends { repoPath: string | null; commitId: string; commitTime: number }>(
  items: readonly T[],
): T[] {
  const copies = new Map<string, T[]>();
  for (const item of items) {
    const key = commitCopyKey(item);
    const found = copies.get(key);
    if (found) found.push(item);
    else copies.set(key, [item]);
  }
  return [...copies.values()].flat();
}
