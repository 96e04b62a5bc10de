import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Flex, Segmented, Spin, Tag, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { CalendarCountPer, CommitLogItem } from '@release/contract';
import type { CommitQuery, CommitSource } from '../../api/commit-logs.api.ts';
import { toast } from '../../app/feedback.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import {
  assignColors,
  emptyDayText,
  type KeyCount,
  monthCells,
  monthGrid,
  yearCells,
  yearWindow,
} from './calendar-math.ts';
import { CalendarMonth } from './calendar-month.tsx';
import { calendarText } from './calendar.strings.ts';
import { CalendarYear } from './calendar-year.tsx';
import { DayDrawer } from './day-drawer.tsx';
import { useCalendarCounts, useDayItems } from './use-calendar-items.ts';
import './calendar.css';

type Mode = 'month' | 'year';
const noCounts = new Map<string, KeyCount[]>();
const noTotals = new Map<string, number>();

interface CommitCalendarProps {
  source: CommitSource | null;
  query: Pick<CommitQuery, 'onlyCliff' | 'remark' | 'branch'>;
  /** Count per app (summary, trend) or per workflow; package items count per package type. */
  countPer: CalendarCountPer;
  /** The day drawer's content: that day's items, newest first (the caller keeps and arranges them as its list does). */
  renderDayItems: (items: CommitLogItem[]) => ReactNode;
  /** The trend's project: counts, legend and days show only its items (the server counts them). */
  project?: string | null;
  /** Hears the apps of the window shown, e.g. to offer them as projects. */
  onWindowApps?: (apps: string[]) => void;
  /** The app's workflow names in tab order: each keeps its colour and place in the legend on every calendar. */
  keyOrder?: readonly string[];
}

/** SPEC §2 calendar: month grid (compact on phones) and year view; a day opens its items in a drawer. */
export function CommitCalendar({
  source,
  query,
  countPer,
  renderDayItems,
  project = null,
  onWindowApps,
  keyOrder,
}: CommitCalendarProps) {
  const isMobile = useIsMobile();
  const [mode, setMode] = useState<Mode>('month');
  const [cursor, setCursor] = useState(() => Date.now());
  const [openDate, setOpenDate] = useState<string | null>(null);
  const grid = useMemo(() => monthGrid(cursor), [cursor]);
  const year = useMemo(() => yearWindow(cursor), [cursor]);
  const cells = useMemo(() => (mode === 'month' ? monthCells(grid) : yearCells(cursor)), [mode, grid, cursor]);
  // One read of the window's counts per day (month) or month (year): the server counts, the page draws.
  const calendar = useCalendarCounts(source, query, cells, countPer, project);
  const counts = calendar.data?.counts ?? noCounts;
  const totals = calendar.data?.totals ?? noTotals;
  useEffect(() => {
    if (calendar.data) onWindowApps?.(calendar.data.apps);
  }, [calendar.data, onWindowApps]);
  const colors = useMemo(
    () =>
      assignColors(
        [...counts.values()].flatMap((list) => list.map((c) => c.key)),
        keyOrder,
      ),
    [counts, keyOrder],
  );
  // A day's items are read when it is opened.
  const openWindow = useMemo(
    () =>
      openDate ? { startTime: dayjs(openDate).valueOf(), endTime: dayjs(openDate).add(1, 'day').valueOf() } : null,
    [openDate],
  );
  const day = useDayItems(source, query, openWindow);

  const step = (delta: 1 | -1): void => setCursor((c) => dayjs(c).add(delta, mode).valueOf());
  const openDay = (date: string): void => {
    if ((totals.get(date) ?? 0) > 0) setOpenDate(date);
    else toast.warning(emptyDayText(date));
  };
  const title =
    mode === 'month'
      ? calendarText.monthTitle(dayjs(cursor).year(), dayjs(cursor).month() + 1)
      : calendarText.yearTitle(dayjs(cursor).year());
  const dayItems = [...(day.data ?? [])].sort((a, b) => b.commitTime - a.commitTime || b.id - a.id);
  return (
    <div className="calendar" data-testid="calendar" data-mode={mode} data-loading={calendar.isFetching}>
      <Flex className="calendar-header" align="center" justify="space-between" gap={8} wrap>
        <Flex align="center" gap={4}>
          <Button
            type="text"
            icon={<LeftOutlined />}
            aria-label={mode === 'month' ? calendarText.previous : calendarText.previousYear}
            onClick={() => step(-1)}
            data-testid="calendar-prev"
          />
          <Typography.Title
            level={5}
            style={{ margin: 0, minWidth: 96, textAlign: 'center' }}
            data-testid="calendar-title"
          >
            {title}
          </Typography.Title>
          <Button
            type="text"
            icon={<RightOutlined />}
            aria-label={mode === 'month' ? calendarText.next : calendarText.nextYear}
            onClick={() => step(1)}
            data-testid="calendar-next"
          />
          <Button size="small" onClick={() => setCursor(Date.now())}>
            {calendarText.today}
          </Button>
        </Flex>
        <Segmented<Mode>
          size="small"
          value={mode}
          onChange={setMode}
          options={[
            { value: 'month', label: calendarText.month },
            { value: 'year', label: calendarText.year },
          ]}
          data-testid="calendar-mode"
        />
      </Flex>
      {colors.size > 0 ? (
        <Flex gap={4} wrap className="calendar-legend">
          {[...colors].map(([key, color]) => (
            <Tag key={key} color={color} style={{ marginInlineEnd: 0 }}>
              {key}
            </Tag>
          ))}
        </Flex>
      ) : null}
      <Spin spinning={calendar.isFetching}>
        {mode === 'month' ? (
          <CalendarMonth
            days={grid.days}
            month={cursor}
            counts={counts}
            totals={totals}
            colors={colors}
            compact={isMobile}
            onDayClick={openDay}
          />
        ) : (
          <CalendarYear
            yearStart={year.startTime}
            counts={counts}
            totals={totals}
            colors={colors}
            onMonthClick={(month) => {
              setCursor(month);
              setMode('month');
            }}
          />
        )}
      </Spin>
      <DayDrawer date={openDate} onClose={() => setOpenDate(null)}>
        <Spin spinning={day.isFetching}>{renderDayItems(dayItems)}</Spin>
      </DayDrawer>
    </div>
  );
}
