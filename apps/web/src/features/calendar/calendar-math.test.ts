import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { commitCopyKey } from '../commits/commit-format.ts';
import {
  CALENDAR_PALETTE,
  assignColors,
  countBy,
  countKeyOf,
  dayOf,
  dayTitle,
  emptyDayText,
  monthGrid,
  monthOf,
  totalBy,
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

describe('calendar counts and colours', () => {
  const item = (time: string, appName: string, tabName: string, nativePackageType: string | null = null) => ({
    commitTime: at(time),
    appName,
    tabName,
    nativePackageType,
  });
  const items = [
    item('2026-11-18T09:00', '商城', '客户端'),
    item('2026-11-18T10:00', '商城', '服务端'),
    item('2026-11-18T11:00', '游戏', '客户端'),
    item('2026-11-18T12:00', '商城', '安装包', 'ios'),
    item('2026-11-19T08:00', '商城', '客户端'),
  ];

  it('counts per app, workflow or package type for each day', () => {
    const byApp = countBy(items, dayOf, (i) => countKeyOf(i, 'app'));
    expect(byApp.get('2026-11-18')).toEqual([
      { key: '商城', count: 2 },
      { key: 'IPA', count: 1 },
      { key: '游戏', count: 1 },
    ]);
    const byWorkflow = countBy(items, dayOf, (i) => countKeyOf(i, 'workflow'));
    expect(byWorkflow.get('2026-11-18')?.find((c) => c.key === '客户端')?.count).toBe(2);
    expect(byWorkflow.get('2026-11-19')).toEqual([{ key: '客户端', count: 1 }]);
    expect(countBy(items, monthOf, () => 'all').get('2026-11')).toEqual([{ key: 'all', count: 5 }]);
  });

  it('counts a commit two workflows of one repository reached once a day: once per key and once in the total', () => {
    const repo = 'https://git.example.com/shop.git';
    const copy = (
      time: string,
      commitId: string,
      appName: string,
      tabName: string,
      repoPath: string | null = repo,
    ) => ({ ...item(time, appName, tabName), commitId, repoPath });
    // 主干 and 发布 follow two branches of one repository: c1 and c2 are on both, r1 only on 发布.
    const summary = [
      copy('2026-11-18T09:00', 'c1', '商城', '主干'),
      copy('2026-11-18T09:00', 'c1', '商城', '发布'),
      copy('2026-11-18T09:00', 'c2', '商城', '主干'),
      copy('2026-11-18T09:00', 'c2', '商城', '发布'),
      copy('2026-11-18T10:00', 'r1', '商城', '发布'),
      // The same id in another repository, or at another time, is another commit.
      copy('2026-11-18T09:00', 'c1', '游戏', '服务端', 'https://git.example.com/game.git'),
      copy('2026-11-19T09:00', 'c1', '商城', '主干'),
    ];
    expect(countBy(summary, dayOf, (i) => countKeyOf(i, 'workflow'), commitCopyKey).get('2026-11-18')).toEqual([
      { key: '发布', count: 3 },
      { key: '主干', count: 2 },
      { key: '服务端', count: 1 },
    ]);
    expect(countBy(summary, dayOf, (i) => countKeyOf(i, 'app'), commitCopyKey).get('2026-11-18')).toEqual([
      { key: '商城', count: 3 },
      { key: '游戏', count: 1 },
    ]);
    expect(totalBy(summary, dayOf, commitCopyKey)).toEqual(
      new Map([
        ['2026-11-18', 4],
        ['2026-11-19', 1],
      ]),
    );
    expect(totalBy(summary, monthOf, commitCopyKey)).toEqual(new Map([['2026-11', 5]]));
    // Without an identity every item counts.
    expect(countBy(summary, dayOf, (i) => countKeyOf(i, 'app')).get('2026-11-18')?.[0]).toEqual({
      key: '商城',
      count: 5,
    });
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
