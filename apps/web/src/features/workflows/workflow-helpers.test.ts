import { describe, expect, it } from 'vitest';
import type { WorkflowRow } from '@release/contract';
import {
  createWorkflowValues,
  packageTypeChoices,
  toWorkflowBody,
  valuesForCategory,
  workflowValuesOf,
} from './workflow-form.values.ts';
import type { WorkflowInput } from '../../api/workflows.api.ts';
import { emptyHintOf, FIRST_SYNC_WAIT_MS, isAwaitingFirstSync, syncAfterSave } from './workflow-state.ts';
import { buildTabs, moveItem, orderPayload, pickTab, tabAfterDelete } from './workflow-tabs.ts';

function row(id: number, orderNo: number, repoType: string | null, extra: Partial<WorkflowRow> = {}): WorkflowRow {
  return {
    id,
    appId: 1,
    tabName: `tab${id}`,
    contentType: repoType ? 'default' : 'package',
    manageType: null,
    repoType,
    repoPath: null,
    defaultBranch: null,
    committers: [],
    robotUrl: null,
    autoPush: false,
    packageType: null,
    orderNo,
    isSummary: false,
    summaryId: null,
    enterpriseName: null,
    webhookUrl: null,
    webhookSecret: null,
    lastSyncTime: null,
    lastSyncError: null,
    ...extra,
  };
}

describe('workflow tabs', () => {
  it('orders tabs and puts the summary first only when more than one has a repoType', () => {
    const tabs = buildTabs([row(3, 2, 'git'), row(1, 1, 'svn'), row(2, 0, null)]);
    expect(tabs.map((t) => t.id)).toEqual([-1, 2, 1, 3]);
    expect(tabs[0]).toMatchObject({ tabName: '工作流汇总', workflowIds: '1,3', row: null });
    expect(buildTabs([row(1, 1, 'git'), row(2, 2, null)]).map((t) => t.id)).toEqual([1, 2]);
  });

  it('opens the requested or remembered tab, else the first', () => {
    const tabs = buildTabs([row(1, 1, 'git'), row(2, 2, 'git')]);
    expect(pickTab(tabs, [null, '2'])).toBe(2);
    expect(pickTab(tabs, ['9', '1'])).toBe(1);
    expect(pickTab(tabs, [undefined, null])).toBe(-1);
    expect(pickTab([], ['1'])).toBeNull();
  });

  it('selects the previous tab after a delete, or the summary', () => {
    const tabs = buildTabs([row(1, 1, 'git'), row(2, 2, 'git'), row(3, 3, null)]);
    expect(tabAfterDelete(tabs, 3)).toBe(2);
    expect(tabAfterDelete(tabs, 1)).toBe(-1);
  });

  it('sends a 1-based order without the summary tab', () => {
    expect(orderPayload([-1, 5, 3, 4])).toEqual([
      { id: 5, orderNo: 1 },
      { id: 3, orderNo: 2 },
      { id: 4, orderNo: 3 },
    ]);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['a', 'd', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
  });
});

describe('workflow form values', () => {
  it('resets the manage type and clears the repo path when the category changes', () => {
    expect(valuesForCategory('custom')).toEqual({ manageType: 'JPS', repoPath: '' });
    expect(valuesForCategory('default')).toEqual({ manageType: 'git', repoPath: '' });
    expect(valuesForCategory('package')).toEqual({ manageType: null, repoPath: '' });
  });

  it('sends only the fields of the category, branches with refs/heads/', () => {
    const values = {
      ...createWorkflowValues(),
      tabName: ' 客户端 ',
      repoPath: 'https://git.example.com/a.git',
      defaultBranch: 'main, dev',
      committers: ['a', 'a', ' b '],
    };
    expect(toWorkflowBody(values, 7)).toMatchObject({
      appId: 7,
      tabName: '客户端',
      contentType: 'default',
      manageType: 'git',
      repoType: 'git',
      repoPath: 'https://git.example.com/a.git',
      defaultBranch: 'refs/heads/main,refs/heads/dev',
      committers: ['a', 'b'],
      robotUrl: null,
      packageType: null,
    });
    expect(toWorkflowBody({ ...values, repoType: 'other' }, 7).repoPath).toBeNull();
    const pkg = toWorkflowBody({ ...values, contentType: 'package', packageType: 'unity', manageType: null }, 7);
    expect(pkg).toMatchObject({
      repoType: null,
      repoPath: null,
      defaultBranch: null,
      packageType: 'unity',
      manageType: null,
    });
  });

  it('keeps the signing secret write-only: blank keeps it, a new one replaces it, a confirmed removal sends empty', () => {
    const values = { ...createWorkflowValues(), tabName: 'a', repoPath: 'x' };
    expect(toWorkflowBody(values, 7)).not.toHaveProperty('robotSecret');
    expect(toWorkflowBody({ ...values, robotSecret: ' s3 ' }, 7).robotSecret).toBe('s3');
    expect(toWorkflowBody({ ...values, clearRobotSecret: true }, 7).robotSecret).toBe('');
    expect(toWorkflowBody({ ...values, clearRobotSecret: true, robotSecret: 'new' }, 7).robotSecret).toBe('new');
  });

  it('reads a stored row back into the form', () => {
    const values = workflowValuesOf(
      row(1, 1, 'git', { defaultBranch: 'refs/heads/main,refs/heads/release/1.x', repoPath: 'x' }),
    );
    expect(values.defaultBranch).toBe('main,release/1.x');
    expect(values.repoPath).toBe('x');
  });

  it('offers every package type to unity apps, three to the others', () => {
    expect(packageTypeChoices('unity')).toHaveLength(6);
    expect(packageTypeChoices('native')).toEqual(['unity', 'native', 'webZip']);
  });
});

describe('syncing after a save', () => {
  const stored = row(1, 1, 'git', {
    repoPath: 'https://git.example.test/a.git',
    defaultBranch: 'refs/heads/main,refs/heads/dev',
    committers: ['Alice'],
  });
  const saved: WorkflowInput = {
    appId: 1,
    tabName: 'tab1',
    contentType: 'default',
    repoType: 'git',
    repoPath: 'https://git.example.test/a.git',
    defaultBranch: 'dev, main',
    committers: ['Alice'],
    autoPush: false,
  };

  it('syncs a new repository workflow, and one whose address, kind or branches changed', () => {
    expect(syncAfterSave(null, saved)).toBe(true);
    expect(syncAfterSave(stored, { ...saved, repoPath: 'https://git.example.test/b.git' })).toBe(true);
    expect(syncAfterSave(stored, { ...saved, repoType: 'svn' })).toBe(true);
    expect(syncAfterSave(stored, { ...saved, defaultBranch: 'main' })).toBe(true);
  });

  it('does not sync for a name, committers or the same branches in another order, nor for other kinds of workflow', () => {
    expect(syncAfterSave(stored, { ...saved, tabName: '客户端', committers: ['Bob'] })).toBe(false);
    expect(syncAfterSave(null, { ...saved, contentType: 'custom', repoType: null, repoPath: null })).toBe(false);
    expect(syncAfterSave(null, { ...saved, repoType: 'other', repoPath: null })).toBe(false);
  });
});

describe('what an empty tab says', () => {
  it('points a custom tab to its push address for editors, and says why a repository tab is empty', () => {
    const custom = row(5, 1, null, { contentType: 'custom', manageType: 'JPS' });
    expect(emptyHintOf(custom, true)).toBe(
      '外部系统向推送地址推送的更新会出现在这里（推送地址和密钥见编辑按钮）；推送过的话，试试把时间范围改为“全部”',
    );
    expect(emptyHintOf(custom, false)).toBe('外部系统推送的更新会出现在这里；试试把时间范围改为“全部”');
    expect(emptyHintOf({ ...custom, manageType: 'wiki' }, true)).toBe(
      '试试把时间范围改为“全部”，或打开“显示过滤的日志”',
    );
    expect(emptyHintOf(row(6, 1, 'git'), true)).toBe('仓库还没有同步过：点击右上角的同步按钮拉取提交记录');
    expect(emptyHintOf(row(6, 1, 'git', { lastSyncTime: 1, lastSyncError: 'x' }), false)).toBe(
      '仓库暂时无法同步，请联系该应用的编辑人员检查仓库地址',
    );
    expect(emptyHintOf(row(7, 1, null), true)).toBe('该应用发布安装包后，版本会出现在这里');
  });
});

describe("waiting for the server's first sync of a saved workflow", () => {
  const fresh = row(7, 1, 'git', { lastSyncTime: null, lastSyncError: null });
  it('waits while the row says neither when it synced nor why it failed, and not forever', () => {
    expect(isAwaitingFirstSync([fresh], { id: 7, since: 1000 }, 2000)).toBe(true);
    expect(isAwaitingFirstSync([{ ...fresh, lastSyncTime: 1500 }], { id: 7, since: 1000 }, 2000)).toBe(false);
    expect(
      isAwaitingFirstSync(
        [{ ...fresh, lastSyncError: '无法连接仓库地址，请检查地址和网络' }],
        { id: 7, since: 1000 },
        2000,
      ),
    ).toBe(false);
    expect(isAwaitingFirstSync([fresh], { id: 7, since: 1000 }, 1000 + FIRST_SYNC_WAIT_MS + 1)).toBe(false);
    expect(isAwaitingFirstSync([fresh], null, 2000)).toBe(false);
  });
});
