import { z } from 'zod';
import { commitLogListQuery } from './commit-logs.ts';

/** Most cells one calendar read counts: a year of days (366) is the largest window the console asks for. */
export const CALENDAR_MAX_CELLS = 366;

/**
 * The cells of a calendar window as the viewer's clock cuts it: ascending epoch milliseconds, the first the window's
 * start, the last its (exclusive) end, so cell i is [bounds[i], bounds[i+1]). The browser sends them: a day is the
 * viewer's local day, whatever the server's time zone.
 */
const calendarBounds = z
  .string()
  .max(CALENDAR_MAX_CELLS * 16)
  .regex(/^\d{1,15}(,\d{1,15})+$/, 'bounds 格式不正确：应为逗号分隔的毫秒时间')
  .transform((text) => text.split(',').map(Number))
  .refine((bounds) => bounds.length <= CALENDAR_MAX_CELLS + 1, `bounds 最多 ${CALENDAR_MAX_CELLS + 1} 个时间点`)
  .refine((bounds) => bounds.every((t, i) => i === 0 || t > (bounds[i - 1] ?? 0)), 'bounds 须严格递增');

/** What a day's (or a month's) counts are per: the app (summary across apps, trend) or the workflow. */
export const calendarCountPer = z.enum(['app', 'workflow']);
export type CalendarCountPer = z.infer<typeof calendarCountPer>;

const calendarFields = {
  bounds: calendarBounds,
  countPer: calendarCountPer.default('workflow'),
  /** The trend's project: only this app's items are counted (the answer's `apps` still lists every app of the window). */
  project: z.string().trim().min(1).max(128).optional(),
};

export const commitLogCalendarQuery = commitLogListQuery
  .pick({ workflowIds: true, branch: true, onlyCliff: true, remark: true })
  .extend(calendarFields);
export type CommitLogCalendarQuery = z.infer<typeof commitLogCalendarQuery>;

export const userCommitLogCalendarQuery = commitLogListQuery
  .pick({ branch: true, onlyCliff: true })
  .extend({ remark: z.string().trim().min(1).max(128), ...calendarFields, countPer: calendarCountPer.default('app') });
export type UserCommitLogCalendarQuery = z.infer<typeof userCommitLogCalendarQuery>;

export const calendarKeyCount = z.object({ key: z.string(), count: z.number() });
export type CalendarKeyCount = z.infer<typeof calendarKeyCount>;

/** One cell (a day, or a month of the year view): its commits, a commit several workflows reached once. */
export const calendarCell = z.object({
  total: z.number(),
  /** Per key (package type, else app or workflow), most first, then by name. */
  counts: z.array(calendarKeyCount),
});

export const commitLogCalendar = z.object({
  /** cells[i] counts [bounds[i], bounds[i+1]). */
  cells: z.array(calendarCell),
  /** The apps with items in the window (before `project`), for the trend's project choices. */
  apps: z.array(z.string()),
});
export type CommitLogCalendar = z.infer<typeof commitLogCalendar>;

const packageLabels: Record<string, string> = {
  ios: 'IPA',
  ipa: 'IPA',
  android: 'APK',
  apk: 'APK',
  web: 'WEB',
  zip: 'WEB',
  mac: 'MAC',
};

/** What an item counts under on the calendar: the package type of package items, else its app or workflow. */
export function calendarKeyOf(
  item: { appName: string; tabName: string; nativePackageType: string | null },
  by: CalendarCountPer,
): string {
  if (item.nativePackageType) return packageLabels[item.nativePackageType] ?? item.nativePackageType.toUpperCase();
  return by === 'app' ? item.appName : item.tabName;
}
