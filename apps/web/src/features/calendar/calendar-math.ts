import dayjs, { type Dayjs } from 'dayjs';

/** SPEC §9: 16 colours, assigned to apps, workflows or package types in order. */
export const CALENDAR_PALETTE = [
  '#1677ff',
  '#52c41a',
  '#fa8c16',
  '#eb2f96',
  '#722ed1',
  '#13c2c2',
  '#f5222d',
  '#2f54eb',
  '#a0d911',
  '#fa541c',
  '#9254de',
  '#08979c',
  '#d4b106',
  '#c41d7f',
  '#597ef7',
  '#7cb305',
] as const;

export const DATE_FORMAT = 'YYYY-MM-DD';

const WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'] as const;

export interface TimeWindow {
  /** Inclusive epoch ms. */
  startTime: number;
  /** Exclusive epoch ms. */
  endTime: number;
}

/** Monday of the week containing the day (weeks start on Monday, as in zh-CN). */
export function startOfWeek(day: Dayjs): Dayjs {
  return day.startOf('day').subtract((day.day() + 6) % 7, 'day');
}

export interface MonthGrid extends TimeWindow {
  /** Every day shown, YYYY-MM-DD, a multiple of 7: from the week of the 1st to the week of the last day. */
  days: string[];
}

/** SPEC §9 calendar range: from the start of the week containing the 1st to the end of the week containing the last day. */
export function monthGrid(anyDayOfMonth: number): MonthGrid {
  const month = dayjs(anyDayOfMonth).startOf('month');
  const first = startOfWeek(month);
  const end = startOfWeek(month.endOf('month')).add(7, 'day');
  const days: string[] = [];
  for (let day = first; day.isBefore(end); day = day.add(1, 'day')) days.push(day.format(DATE_FORMAT));
  return { days, startTime: first.valueOf(), endTime: end.valueOf() };
}

/** The year view's window: the whole year. */
export function yearWindow(anyDayOfYear: number): TimeWindow {
  const year = dayjs(anyDayOfYear).startOf('year');
  return { startTime: year.valueOf(), endTime: year.add(1, 'year').valueOf() };
}

export function weekdayName(date: string | number): string {
  return WEEKDAYS[dayjs(date).day()] ?? '';
}

/** The day drawer's title: Chinese weekday, a space, YYYY-MM-DD. */
export function dayTitle(date: string): string {
  return `${weekdayName(date)} ${dayjs(date).format(DATE_FORMAT)}`;
}

/** The empty-day warning, e.g. 星期三 2026-11-18 没有提交记录. */
export function emptyDayText(date: string): string {
  return `${dayTitle(date)} 没有提交记录`;
}

export type { CalendarKeyCount as KeyCount } from '@release/contract';

/** The month grid's cells for the calendar read: each day, cut at the viewer's local midnights. */
export function monthCells(grid: MonthGrid): { labels: string[]; bounds: number[] } {
  return { labels: grid.days, bounds: [...grid.days.map((day) => dayjs(day).valueOf()), grid.endTime] };
}

/** The year view's cells: its twelve months, keyed YYYY-MM, cut at the viewer's local month starts. */
export function yearCells(anyDayOfYear: number): { labels: string[]; bounds: number[] } {
  const year = dayjs(anyDayOfYear).startOf('year');
  const months = Array.from({ length: 13 }, (_, i) => year.add(i, 'month'));
  return { labels: months.slice(0, 12).map((m) => m.format('YYYY-MM')), bounds: months.map((m) => m.valueOf()) };
}

/**
 * Colours by key, in legend order. A key of `order` (the app's workflows in tab order) takes the palette colour of its
 * place there, so a workflow has one colour on its own tab and on 工作流汇总; other keys (package types, apps) follow
 * in name order. The palette wraps after 16.
 */
export function assignColors(keys: Iterable<string>, order: readonly string[] = []): Map<string, string> {
  const present = new Set(keys);
  const ordered = order
    .map((key, index) => ({ key, index }))
    .filter(({ key }, index) => present.has(key) && order.indexOf(key) === index);
  const rest = [...present].filter((key) => !order.includes(key)).sort((a, b) => a.localeCompare(b));
  const placed = [...ordered, ...rest.map((key, index) => ({ key, index: order.length + index }))];
  return new Map(
    placed.map(({ key, index }) => [key, CALENDAR_PALETTE[index % CALENDAR_PALETTE.length] ?? CALENDAR_PALETTE[0]]),
  );
}
