import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CalendarCountPer, CommitLogItem } from '@release/contract';
import {
  commitKeys,
  fetchCommitCalendar,
  fetchCommitPage,
  type CommitQuery,
  type CommitSource,
} from '../../api/commit-logs.api.ts';
import type { KeyCount, TimeWindow } from './calendar-math.ts';

/** A day's items come in big pages, following nextCursor (capped, so a runaway day cannot loop). */
export const CALENDAR_PAGE_SIZE = 200;
const MAX_PAGES = 50;

/** The cells of the window shown: each one's label (YYYY-MM-DD or YYYY-MM) and the bounds that cut them. */
export interface CalendarCellsOf {
  labels: string[];
  /** labels.length + 1 ascending times: cell i is [bounds[i], bounds[i+1]). */
  bounds: number[];
}

export interface CalendarCounts {
  /** Per label: counts per key, most first. */
  counts: Map<string, KeyCount[]>;
  /** Per label: commits, a commit several workflows reached once. */
  totals: Map<string, number>;
  /** The apps with items in the window (for the trend's project choices). */
  apps: string[];
}

const empty: CalendarCounts = { counts: new Map(), totals: new Map(), apps: [] };
type CalendarQuery = Pick<CommitQuery, 'onlyCliff' | 'remark' | 'branch'>;

/** Every cell's counts of the shown window (month grid or year) in one request, refetched when anything changes. */
export function useCalendarCounts(
  source: CommitSource | null,
  query: CalendarQuery,
  cells: CalendarCellsOf,
  countPer: CalendarCountPer,
  project: string | null,
) {
  const request = { bounds: cells.bounds, countPer, project };
  return useQuery({
    queryKey: commitKeys.calendarCounts(source ?? { kind: 'workflows', workflowIds: '' }, { ...query, ...request }),
    queryFn: async ({ signal }): Promise<CalendarCounts> => {
      if (!source) return empty;
      try {
        const answer = await fetchCommitCalendar(source, query, request, signal);
        const counts = new Map<string, KeyCount[]>();
        const totals = new Map<string, number>();
        answer.cells.forEach((cell, index) => {
          const label = cells.labels[index];
          if (label === undefined || cell.total === 0) return;
          counts.set(label, cell.counts);
          totals.set(label, cell.total);
        });
        return { counts, totals, apps: answer.apps };
      } catch (error) {
        if (signal.aborted) throw error;
        // SPEC §4: a failed calendar fetch quietly yields an empty calendar.
        return empty;
      }
    },
    enabled: source !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

async function fetchWindow(source: CommitSource, query: CommitQuery, signal: AbortSignal): Promise<CommitLogItem[]> {
  const items: CommitLogItem[] = [];
  try {
    let cursor: string | null = null;
    for (let round = 0; round < MAX_PAGES; round++) {
      const page = await fetchCommitPage(source, query, {
        pageNo: 1,
        cursor,
        pageSize: CALENDAR_PAGE_SIZE,
        signal,
        silent: true,
      });
      items.push(...page.list);
      if (!page.hasMore || page.list.length === 0 || !page.nextCursor) break;
      cursor = page.nextCursor;
    }
  } catch (error) {
    if (signal.aborted) throw error;
    return [];
  }
  return items;
}

/** The items of the day opened in the drawer (null: none open), fetched when it opens. */
export function useDayItems(source: CommitSource | null, query: CalendarQuery, day: TimeWindow | null) {
  const full: CommitQuery = { ...query, ...(day ?? {}) };
  return useQuery({
    queryKey: commitKeys.calendar(source ?? { kind: 'workflows', workflowIds: '' }, full),
    queryFn: ({ signal }) => (source && day ? fetchWindow(source, full, signal) : Promise.resolve([])),
    enabled: source !== null && day !== null,
    retry: false,
  });
}
