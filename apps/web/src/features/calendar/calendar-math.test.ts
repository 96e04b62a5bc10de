import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { calendarKeyOf } from '@release/contract';
import {
  CALENDAR_PALETTE,
  assignColors,
  dayTitle,
  emptyDayText,
  monthCells,
  monthGrid,
  yearCells,
  yearWindow,
} from './calendar-math.ts';

const at = (text: string) => dayjs(text).valueOf();

describe('calendar range', () => {
  it('runs from the Monday of the week of the 1st to the Sunday of the week of the last day', () => {
    const grid = monthGrid(at('2026-11-18T10:00:00'));
    // 1 Nov 2026 is a Sunday, 30 Nov a Monday.
    expect(grid.days[0]).toBe('2026-10-26');
    expect(grid.days.at(-1)).toBe('2026-12-06');
    expect(grid.days).toHaveLength(42);
    expect(grid.startTime).toBe(at('2026-10-26T00:00:00'));
    expect(grid.endTime).toBe(at('2026-12-07T00:00:00'));
  });

  it('needs only four weeks when the month fills them exactly', () => {
    const grid = monthGrid(at('2027-02-10'));
    // February 2027 starts on a Monday and ends on a Sunday.
    expect(grid.days[0]).toBe('2027-02-01');
    expect(grid.days).toHaveLength(28);
  });

  it('covers the whole year in the year view', () => {
    expect(yearWindow(at('2026-06-15'))).toEqual({
      startTime: at('2026-01-01T00:00:00'),
      endTime: at('2027-01-01T00:00:00'),
    });
  });

  it('titles a day with its Chinese weekday', () => {
    expect(dayTitle('2026-11-18')).toBe('星期三 2026-11-18');
    expect(dayTitle('2026-11-22')).toBe('星期日 2026-11-22');
    expect(emptyDayText('2026-11-18')).toBe('星期三 2026-11-18 没有提交记录');
  });
});

describe('calendar cells and colours', () => {
  it('asks for the month grid day by day, cut at local midnights, the last bound the grid end', () => {
    const grid = monthGrid(at('2026-11-18T10:00:00'));
    const cells = monthCells(grid);
    expect(cells.labels).toEqual(grid.days);
    expect(cells.bounds).toHaveLength(43);
    expect(cells.bounds[0]).toBe(at('2026-10-26T00:00:00'));
    expect(cells.bounds[7]).toBe(at('2026-11-02T00:00:00'));
    expect(cells.bounds.at(-1)).toBe(grid.endTime);
  });

  it('asks for the year month by month, keyed YYYY-MM', () => {
    const cells = yearCells(at('2026-06-15'));
    expect(cells.labels).toEqual(Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`));
    expect(cells.bounds[0]).toBe(at('2026-01-01T00:00:00'));
    expect(cells.bounds[2]).toBe(at('2026-03-01T00:00:00'));
    expect(cells.bounds.at(-1)).toBe(at('2027-01-01T00:00:00'));
  });

  it('counts package items per package type, others per app or workflow', () => {
    const item = (nativePackageType: string | null) => ({ appName: '商城', tabName: '客户端', nativePackageType });
    expect(calendarKeyOf(item(null), 'app')).toBe('商城');
    expect(calendarKeyOf(item(null), 'workflow')).toBe('客户端');
    expect(['ios', 'android', 'web', 'mac', 'other'].map((t) => calendarKeyOf(item(t), 'app'))).toEqual([
      'IPA',
      'APK',
      'WEB',
      'MAC',
      'OTHER',
    ]);
  });

  it('gives distinct keys the 16 palette colours in order and wraps after them', () => {
    const colors = assignColors(['b', 'a', 'b', 'c']);
    expect(colors.get('a')).toBe(CALENDAR_PALETTE[0]);
    expect(colors.get('b')).toBe(CALENDAR_PALETTE[1]);
    expect(colors.get('c')).toBe(CALENDAR_PALETTE[2]);
    const many = assignColors(Array.from({ length: 17 }, (_, i) => `k${String(i).padStart(2, '0')}`));
    expect(CALENDAR_PALETTE).toHaveLength(16);
    expect(many.get('k16')).toBe(CALENDAR_PALETTE[0]);
  });

  it('colours a workflow by its tab: the same on its own calendar and on 工作流汇总, the legend in tab order', () => {
    const tabs = ['客户端', '服务端', '美术'];
    const own = assignColors(['服务端'], tabs);
    const summary = assignColors(['美术', '客户端', '服务端', '客户端'], tabs);
    expect(own.get('服务端')).toBe(CALENDAR_PALETTE[1]);
    expect(summary.get('服务端')).toBe(CALENDAR_PALETTE[1]);
    expect([...summary.keys()]).toEqual(['客户端', '服务端', '美术']);
    // Keys that are not tabs (package types) come after the tabs, by name.
    expect([...assignColors(['WEB', 'APK', '美术'], tabs)]).toEqual([
      ['美术', CALENDAR_PALETTE[2]],
      ['APK', CALENDAR_PALETTE[3]],
      ['WEB', CALENDAR_PALETTE[4]],
    ]);
  });
});
