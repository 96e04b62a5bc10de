import type { CommitLogItem } from '@release/contract';

/** SPEC §3 range mode: today's logs, or a custom range. */
export type RangeMode = 'day' | 'custom';

/** Later in time than `start` (the list's order: commit time, then id). */
function isAfter(
  item: Pick<CommitLogItem, 'commitTime' | 'id'>,
  start: Pick<CommitLogItem, 'commitTime' | 'id'>,
): boolean {
  return item.commitTime > start.commitTime || (item.commitTime === start.commitTime && item.id > start.id);
}

/** SPEC §4: the end choices list only commits after the start, oldest first. */
export function endChoices(items: CommitLogItem[], start: CommitLogItem): CommitLogItem[] {
  return items.filter((item) => isAfter(item, start)).sort((a, b) => a.commitTime - b.commitTime || a.id - b.id);
}

/** The items from `start` to `end` inclusive, newest first (what a custom send covers). */
export function itemsBetween(items: CommitLogItem[], start: CommitLogItem, end: CommitLogItem): CommitLogItem[] {
  return items.filter((item) => !isAfter(start, item) && !isAfter(item, end));
}

/** The items of one day [from, to), newest first. */
export function itemsOfDay(items: CommitLogItem[], from: number, to: number): CommitLogItem[] {
  return items.filter((item) => item.commitTime >= from && item.commitTime < to);
}
