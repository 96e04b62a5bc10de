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

export interface CalendarItem {
  commitTime: number;
  appName: string;
  tabName: string;
  nativePackageType: string | null;
}

export type CountBy = 'app' | 'workflow';

const packageLabels: Record<string, string> = {
  ios: 'IPA',
  ipa: 'IPA',
  android: 'APK',
  apk: 'APK',
  web: 'WEB',
  zip: 'WEB',
  mac: 'MAC',
};

/** What a day's count is per: the package type of package items, else the app or the workflow. */
export function countKeyOf(item: CalendarItem, by: CountBy): string {
  if (item.nativePackageType) return packageLabels[item.nativePackageType] ?? item.nativePackageType.toUpperCase();
  return by === 'app' ? item.appName : item.tabName;
}

export interface KeyCount {
  key: string;
  count: number;
}

/**
 * Counts per key for each bucket (a day, or a month in the year view), keys by count then name. With identityOf,
 * items of one identity (the copies of a commit several workflows reached) count once per key.
 */
export function countBy<T>(
  items: readonly T[],
  bucketOf: (item: T) => string,
  keyOf: (item: T) => string,
  identityOf?: (item: T) => string,
): Map<string, KeyCount[]> {
  const buckets = new Map<string, Map<string, Set<string | number>>>();
  items.forEach((item, index) => {
    const bucket = bucketOf(item);
    const keys = buckets.get(bucket) ?? new Map<string, Set<string | number>>();
    const key = keyOf(item);
    const seen = keys.get(key) ?? new Set<string | number>();
    seen.add(identityOf ? identityOf(item) : index);
    keys.set(key, seen);
    buckets.set(bucket, keys);
  });
  const out = new Map<string, KeyCount[]>();
  for (const [bucket, keys] of buckets) {
    out.set(
      bucket,
      [...keys]
        .map(([key, seen]) => ({ key, count: seen.size }))
        .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
    );
  }
  return out;
}

/** How many items each bucket holds, items of one identity once: a commit two workflows reached is one commit. */
export function totalBy<T>(
  items: readonly T[],
  bucketOf: (item: T) => string,
  identityOf: (item: T) => string,
): Map<string, number> {
  return new Map(
    [...countBy(items, bucketOf, () => '', identityOf)].map(([bucket, counts]) => [bucket, counts[0]?.count ?? 0]),
  );
}

export function dayOf(item: { commitTime: number }): string {
  return dayjs(item.commitTime).format(DATE_FORMAT);
}

export function monthOf(item: { commitTime: number }): string {
  return dayjs(item.commitTime).format('YYYY-MM');
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
