import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CommitLogItem } from '@release/contract';
import { commitKeys, fetchCommitPage, type CommitQuery, type CommitSource } from '../../api/commit-logs.api.ts';
import type { TimeWindow } from './calendar-math.ts';

/** The calendar asks for big pages and follows nextCursor (capped, so a busy year cannot run away). */
export const CALENDAR_PAGE_SIZE = 200;
const MAX_PAGES = 50;

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
    // SPEC §4: a failed calendar fetch quietly yields an empty list.
    return [];
  }
  return items;
}

/** Every item of the shown window (month grid or year), refetched when the source, filters or window change. */
export function useCalendarItems(
  source: CommitSource | null,
  query: Omit<CommitQuery, 'startTime' | 'endTime'>,
  timeWindow: TimeWindow,
) {
  const full: CommitQuery = { ...query, startTime: timeWindow.startTime, endTime: timeWindow.endTime };
  return useQuery({
    queryKey: commitKeys.calendar(source ?? { kind: 'workflows', workflowIds: '' }, full),
    queryFn: ({ signal }) => (source ? fetchWindow(source, full, signal) : Promise.resolve([])),
    enabled: source !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
