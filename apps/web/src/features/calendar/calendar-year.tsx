import dayjs from 'dayjs';
import { calendarText } from './calendar.strings.ts';
import type { KeyCount } from './calendar-math.ts';

interface CalendarYearProps {
  /** The first moment of the year shown. */
  yearStart: number;
  /** Counts per key for each month, keyed YYYY-MM. */
  counts: Map<string, KeyCount[]>;
  /** Each month's items, a commit several workflows reached once; keyed YYYY-MM. */
  totals: Map<string, number>;
  colors: Map<string, string>;
  onMonthClick: (month: number) => void;
}

/** The year view: twelve months with their totals and a bar per app / workflow / package type. */
export function CalendarYear({ yearStart, counts, totals, colors, onMonthClick }: CalendarYearProps) {
  const start = dayjs(yearStart);
  return (
    <div className="calendar-year">
      {Array.from({ length: 12 }, (_, index) => {
        const month = start.add(index, 'month');
        const monthCounts = counts.get(month.format('YYYY-MM')) ?? [];
        const total = totals.get(month.format('YYYY-MM')) ?? 0;
        return (
          <button
            key={month.format('YYYY-MM')}
            type="button"
            className="calendar-year-month"
            onClick={() => onMonthClick(month.valueOf())}
            data-testid="calendar-month"
            data-month={month.format('YYYY-MM')}
          >
            <span className="calendar-year-title">
              {calendarText.monthName(index + 1)}
              <b>{total > 0 ? calendarText.total(total) : calendarText.noRecords}</b>
            </span>
            <span className="calendar-year-bar">
              {monthCounts.map((c) => (
                <i
                  key={c.key}
                  style={{ flexGrow: c.count, background: colors.get(c.key) }}
                  title={`${c.key}：${c.count}`}
                />
              ))}
            </span>
          </button>
        );
      })}
    </div>
  );
}
