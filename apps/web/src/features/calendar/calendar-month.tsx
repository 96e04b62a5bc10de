import dayjs from 'dayjs';
import { calendarText } from './calendar.strings.ts';
import { DATE_FORMAT, type KeyCount } from './calendar-math.ts';

interface CalendarMonthProps {
  days: string[];
  /** Any day of the month shown; days outside it are dimmed. */
  month: number;
  counts: Map<string, KeyCount[]>;
  /** Each day's items, a commit several workflows reached once. */
  totals: Map<string, number>;
  colors: Map<string, string>;
  compact: boolean;
  onDayClick: (date: string) => void;
}

/** Most rows a desktop cell lists before it folds the rest into +N. */
const SHOWN_KEYS = 3;

/** The month grid: Monday-first weeks, per-day counts per app / workflow / package type in their colours. */
export function CalendarMonth({ days, month, counts, totals, colors, compact, onDayClick }: CalendarMonthProps) {
  const current = dayjs(month).format('YYYY-MM');
  const today = dayjs().format(DATE_FORMAT);
  return (
    <div className={compact ? 'calendar-grid is-compact' : 'calendar-grid'}>
      {calendarText.weekdays.map((name) => (
        <div key={name} className="calendar-weekday">
          {name}
        </div>
      ))}
      {days.map((date) => {
        const dayCounts = counts.get(date) ?? [];
        const total = totals.get(date) ?? 0;
        const classes = [
          'calendar-day',
          date.startsWith(current) ? '' : 'is-outside',
          date === today ? 'is-today' : '',
          total > 0 ? 'has-items' : '',
        ]
          .filter(Boolean)
          .join(' ');
        return (
          <button
            key={date}
            type="button"
            className={classes}
            onClick={() => onDayClick(date)}
            data-testid="calendar-day"
            data-date={date}
            data-count={total}
          >
            <span className="calendar-day-number">{Number(date.slice(8))}</span>
            {compact ? (
              total > 0 ? (
                <span className="calendar-dots">
                  {dayCounts.slice(0, SHOWN_KEYS).map((c) => (
                    <i key={c.key} style={{ background: colors.get(c.key) }} />
                  ))}
                  <b>{total}</b>
                </span>
              ) : null
            ) : (
              <span className="calendar-counts">
                {dayCounts.slice(0, SHOWN_KEYS).map((c) => (
                  <span
                    key={c.key}
                    className="calendar-count"
                    style={{ borderColor: colors.get(c.key), color: colors.get(c.key) }}
                    title={`${c.key}：${c.count}`}
                  >
                    <span className="calendar-count-name">{c.key}</span>
                    <span>{c.count}</span>
                  </span>
                ))}
                {dayCounts.length > SHOWN_KEYS ? (
                  <span className="calendar-more">
                    {calendarText.more(dayCounts.slice(SHOWN_KEYS).reduce((sum, c) => sum + c.count, 0))}
                  </span>
                ) : null}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
