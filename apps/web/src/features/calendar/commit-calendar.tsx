import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Flex, Segmented, Spin, Tag, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { CommitLogItem } from '@release/contract';
import type { CommitQuery, CommitSource } from '../../api/commit-logs.api.ts';
import { toast } from '../../app/feedback.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { commitCopyKey } from '../commits/commit-format.ts';
import {
  assignColors,
  countBy,
  countKeyOf,
  dayOf,
  emptyDayText,
  monthGrid,
  monthOf,
  totalBy,
  yearWindow,
  type CountBy,
} from './calendar-math.ts';
import { CalendarMonth } from './calendar-month.tsx';
import { calendarText } from './calendar.strings.ts';
import { CalendarYear } from './calendar-year.tsx';
import { DayDrawer } from './day-drawer.tsx';
import { useCalendarItems } from './use-calendar-items.ts';
import './calendar.css';

type Mode = 'month' | 'year';

interface CommitCalendarProps {
  source: CommitSource | null;
  query: Omit<CommitQuery, 'startTime' | 'endTime'>;
  /** Count per app (summary, trend) or per workflow; package items count per package type. */
  countPer: CountBy;
  /** The day drawer's content: that day's items, newest first (the copies of a commit are arranged by the caller, as its list does). */
  renderDayItems: (items: CommitLogItem[]) => ReactNode;
  /** The caller's filter kept on the client (the trend's project): counts, legend and days show only the items it keeps. */
  keep?: (item: CommitLogItem) => boolean;
  /** Hears every item of the window shown (before `keep`), e.g. to offer their projects. */
  onWindowItems?: (items: CommitLogItem[]) => void;
  /** The app's workflow names in tab order: each keeps its colour and place in the legend on every calendar. */
  keyOrder?: readonly string[];
}

/** SPEC §2 calendar: month grid (compact on phones) and year view; a day opens its items in a drawer. */
export function CommitCalendar({
  source,
  query,
  countPer,
  renderDayItems,
  keep,
  onWindowItems,
  keyOrder,
}: CommitCalendarProps) {
  const isMobile = useIsMobile();
  const [mode, setMode] = useState<Mode>('month');
  const [cursor, setCursor] = useState(() => Date.now());
  const [openDate, setOpenDate] = useState<string | null>(null);
  const grid = useMemo(() => monthGrid(cursor), [cursor]);
  const year = useMemo(() => yearWindow(cursor), [cursor]);
  const calendar = useCalendarItems(source, query, mode === 'month' ? grid : year);
  const fetched = useMemo(() => calendar.data ?? [], [calendar.data]);
  useEffect(() => onWindowItems?.(fetched), [fetched, onWindowItems]);
  const items = useMemo(() => (keep ? fetched.filter(keep) : fetched), [fetched, keep]);
  const colors = useMemo(
    () =>
      assignColors(
        items.map((item) => countKeyOf(item, countPer)),
        keyOrder,
      ),
    [items, countPer, keyOrder],
  );
  // A commit several workflows reached (工作流汇总, trend) counts once a day: once per key, and once in the total.
  const counts = useMemo(
    () => countBy(items, mode === 'month' ? dayOf : monthOf, (item) => countKeyOf(item, countPer), commitCopyKey),
    [items, mode, countPer],
  );
  const totals = useMemo(() => totalBy(items, mode === 'month' ? dayOf : monthOf, commitCopyKey), [items, mode]);

  const step = (delta: 1 | -1): void => setCursor((c) => dayjs(c).add(delta, mode).valueOf());
  const openDay = (date: string): void => {
    if (items.some((item) => dayOf(item) === date)) setOpenDate(date);
    else toast.warning(emptyDayText(date));
  };
  const title =
    mode === 'month'
      ? calendarText.monthTitle(dayjs(cursor).year(), dayjs(cursor).month() + 1)
      : calendarText.yearTitle(dayjs(cursor).year());
  const dayItems = openDate ? items.filter((item) => dayOf(item) === openDate) : [];

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
        {renderDayItems(dayItems.sort((a, b) => b.commitTime - a.commitTime || b.id - a.id))}
      </DayDrawer>
    </div>
  );
}
