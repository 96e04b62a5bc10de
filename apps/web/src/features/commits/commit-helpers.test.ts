import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { defaultCommitFilter, inProject, projectOptions, timeRangeOf, toCommitQuery } from './commit-filter.ts';
import { commitPageSize, dateTimeText, groupByDay, groupByProject, sameCommitsTogether } from './commit-format.ts';
import { commitTypes, displayType, parseCommitMessage, shortCommitId } from './commit-message.ts';

const at = (text: string) => dayjs(text).valueOf();

describe('commit messages', () => {
  it('parses type(scope): subject and the body', () => {
    expect(parseCommitMessage('feat(login): 支持扫码登录\n\n详细说明')).toEqual({
      type: 'feat',
      scope: 'login',
      breaking: false,
      subject: '支持扫码登录',
      body: '详细说明',
    });
    expect(parseCommitMessage('fix!: crash on start')).toMatchObject({
      type: 'fix',
      breaking: true,
      subject: 'crash on start',
    });
    expect(parseCommitMessage('Doc：更新说明')).toMatchObject({ type: 'docs', subject: '更新说明' });
    expect(commitTypes.docs.label).toBe('文档');
  });

  it('keeps prose and unknown words as the subject', () => {
    expect(parseCommitMessage('Note: remember this')).toMatchObject({ type: null, subject: 'Note: remember this' });
    expect(parseCommitMessage('Merge branch dev')).toMatchObject({ type: null, subject: 'Merge branch dev' });
    expect(displayType(parseCommitMessage('Merge branch dev'), false)).toBe('other');
    expect(displayType(parseCommitMessage('1.2.0 release'), true)).toBeNull();
  });

  it('shows 7 characters of a commit id', () => {
    expect(shortCommitId('0123456789abcdef')).toBe('0123456');
    // Items pushed by JPS or made from Lark document events have no id worth showing.
    expect(shortCommitId('x:lark:0f3c9a')).toBeNull();
  });
});

describe('commit list helpers', () => {
  it('uses 30 items, or as many 60 px rows as fit on screens taller than 2300 px', () => {
    expect(commitPageSize(1080)).toBe(30);
    expect(commitPageSize(2300)).toBe(30);
    expect(commitPageSize(2560)).toBe(36);
  });

  it('groups items by day with 今天 / 昨天 / 前天 labels', () => {
    const now = at('2026-11-18T12:00');
    const items = [
      at('2026-11-18T09:00'),
      at('2026-11-18T08:00'),
      at('2026-11-17T23:00'),
      at('2026-11-16T01:00'),
      at('2026-11-01T01:00'),
    ].map((commitTime) => ({ commitTime }));
    expect(groupByDay(items, now).map((g) => [g.label, g.items.length])).toEqual([
      ['今天', 2],
      ['昨天', 1],
      ['前天', 1],
      ['2026-11-01', 1],
    ]);
    expect(dateTimeText(at('2026-11-17T18:20'), now)).toBe('昨天 18:20');
  });

  it('groups a day by project in order of appearance', () => {
    const groups = groupByProject([{ appName: 'B' }, { appName: 'A' }, { appName: 'B' }]);
    expect(groups.map((g) => [g.key, g.items.length])).toEqual([
      ['B', 2],
      ['A', 1],
    ]);
  });
});

describe('commit filter', () => {
  const now = at('2026-11-18T12:00');

  it('defaults to one week, all categories, hidden filtered logs', () => {
    const filter = defaultCommitFilter(now);
    expect(filter.timeKey).toBe('week');
    expect(filter.categories).toEqual(['changelog', 'media', 'remark']);
    expect(toCommitQuery(filter)).toEqual({ onlyCliff: true, startTime: at('2026-11-11T12:00') });
  });

  it('maps time options and the custom range to startTime / endTime', () => {
    expect(timeRangeOf('all', now)).toEqual({});
    expect(timeRangeOf('day', now)).toEqual({ startTime: at('2026-11-17T12:00') });
    expect(timeRangeOf('month', now)).toEqual({ startTime: at('2026-10-18T12:00') });
    expect(timeRangeOf('custom', now, [at('2026-11-01T15:00'), at('2026-11-03T01:00')])).toEqual({
      startTime: at('2026-11-01T00:00'),
      endTime: at('2026-11-04T00:00'),
    });
  });

  it('sends the committer, the branch and onlyCliff=false when filtered logs are shown', () => {
    const filter = {
      ...defaultCommitFilter(now),
      committer: 'alice',
      branch: 'main',
      showFiltered: true,
      timeKey: 'all' as const,
      range: {},
    };
    expect(toCommitQuery(filter)).toEqual({ onlyCliff: false, remark: 'alice', branch: 'main' });
  });

  it("keeps the chosen project's items and offers the projects of what is shown, the chosen one always", () => {
    const items = [{ appName: '晨曦' }, { appName: '月光' }, { appName: '晨曦' }];
    expect(items.filter(inProject('月光'))).toEqual([{ appName: '月光' }]);
    expect(items.filter(inProject(null))).toEqual(items);
    expect(projectOptions(items, null)).toEqual(['晨曦', '月光']);
    // A month without the chosen project's items still names it, so the select shows what filters the calendar.
    expect(projectOptions([{ appName: '晨曦' }], '月光')).toEqual(['晨曦', '月光']);
  });
});

describe('the summary of two workflows on one repository', () => {
  it('puts the copies of a commit together, each workflow keeping its own item', () => {
    const repo = 'https://git.example.com/shop.git';
    const item = (id: number, tabName: string, commitId: string, commitTime = 1000) => ({
      id,
      tabName,
      commitId,
      commitTime,
      repoPath: repo,
    });
    // As the server pages them: same-second commits by id, so 服务端's run comes before 客户端主干's.
    const page = [
      item(6, '服务端', 'c3'),
      item(5, '服务端', 'c2'),
      item(4, '服务端', 'c1'),
      item(3, '客户端主干', 'c3'),
      item(2, '客户端主干', 'c2'),
      item(1, '客户端主干', 'c1'),
      item(0, '其他', 'c1', 900),
    ];
    expect(sameCommitsTogether(page).map((i) => `${i.commitId}/${i.tabName}`)).toEqual([
      'c3/服务端',
      'c3/客户端主干',
      'c2/服务端',
      'c2/客户端主干',
      'c1/服务端',
      'c1/客户端主干',
      'c1/其他',
    ]);
  });
});
