import dayjs from 'dayjs';
import type { CommitQuery } from '../../api/commit-logs.api.ts';

/** SPEC §4 time filter options; the default is 一周内. */
export const timeRangeKeys = ['all', 'day', 'week', 'month', 'year', 'custom'] as const;
export type TimeRangeKey = (typeof timeRangeKeys)[number];

/** The display categories of the filter bar: which parts of an item render. */
export const displayCategories = ['changelog', 'media', 'remark'] as const;
export type DisplayCategory = (typeof displayCategories)[number];

export interface TimeRange {
  startTime?: number;
  /** Exclusive, as the server reads it. */
  endTime?: number;
}

export interface CommitFilter {
  categories: DisplayCategory[];
  /** The committer (remark) on workflow tabs. */
  committer: string | null;
  /** The project (app name) on the trend page, filtered on the client. */
  project: string | null;
  branch: string | null;
  /** 显示过滤的日志: onlyCliff=false. */
  showFiltered: boolean;
  /** 按项目分组 (trend page only). */
  groupByProject: boolean;
  timeKey: TimeRangeKey;
  range: TimeRange;
}

/** The [start, end] days of a custom range, as epoch ms (any time within each day). */
export type DayRange = [number, number];

/** The time window of an option, computed once when it is chosen so the list's key stays stable. */
export function timeRangeOf(key: TimeRangeKey, now: number, custom?: DayRange): TimeRange {
  const from = (unit: 'day' | 'week' | 'month' | 'year'): TimeRange => ({
    startTime: dayjs(now).subtract(1, unit).valueOf(),
  });
  switch (key) {
    case 'all':
      return {};
    case 'day':
    case 'week':
    case 'month':
    case 'year':
      return from(key);
    case 'custom':
      if (!custom) return {};
      return {
        startTime: dayjs(custom[0]).startOf('day').valueOf(),
        endTime: dayjs(custom[1]).add(1, 'day').startOf('day').valueOf(),
      };
  }
}

export function defaultCommitFilter(now: number = Date.now()): CommitFilter {
  return {
    categories: [...displayCategories],
    committer: null,
    project: null,
    branch: null,
    showFiltered: false,
    groupByProject: false,
    timeKey: 'week',
    range: timeRangeOf('week', now),
  };
}

/** What the server filters: onlyCliff unless 显示过滤的日志, the time window, committer and branch. */
export function toCommitQuery(filter: CommitFilter): CommitQuery {
  return {
    onlyCliff: !filter.showFiltered,
    ...filter.range,
    ...(filter.committer ? { remark: filter.committer } : {}),
    ...(filter.branch ? { branch: filter.branch } : {}),
  };
}

/**
 * The trend's project filter (SPEC §2 filter bar): the server answers a committer's items of every app the viewer may
 * see, and the list, the calendar's counts and its day drawer all keep only the chosen project's.
 */
export function inProject(project: string | null): (item: { appName: string }) => boolean {
  return project === null ? () => true : (item) => item.appName === project;
}

/** The project choices: the apps of the items shown (the list's pages or the calendar's window), the chosen one kept. */
export function projectOptions(items: readonly { appName: string }[], chosen: string | null): string[] {
  const names = new Set(items.map((item) => item.appName));
  if (chosen !== null) names.add(chosen);
  return [...names];
}

export function shows(filter: Pick<CommitFilter, 'categories'>, category: DisplayCategory): boolean {
  return filter.categories.includes(category);
}
