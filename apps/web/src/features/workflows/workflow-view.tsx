import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Flex, Spin, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { branchNames, SUMMARY_TAB_ID, type AppDetail, type WorkflowRow } from '@release/contract';
import { commitKeys } from '../../api/commit-logs.api.ts';
import { workflowKeys } from '../../api/workflows.api.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { lazyModal, lazyPart } from '../../app/components/lazy-part.tsx';
import type { CommitView } from '../commits/commit-browser.tsx';
import { useEditing } from '../../app/components/use-editing.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { cacheWorkflowId, readCachedWorkflowId } from '../apps/workflow-history.ts';
import { useWorkflowMutations, useWorkflows } from './use-workflows.ts';
import { WorkflowTabBar } from './workflow-tab-bar.tsx';
import { buildTabs, pickTab, tabAfterDelete } from './workflow-tabs.ts';
import { emptyHintOf, isAwaitingFirstSync, isSyncable, syncAfterSave } from './workflow-state.ts';
import { WorkflowToolbar } from './workflow-toolbar.tsx';
import { workflowsText } from './workflows.strings.ts';
import { useVersionRemoved } from '../versions/version-events.ts';
import { useIsLarkEnabled } from '../../app/use-is-lark-enabled.ts';

// The commit list and the dialogs load on first use, in their own chunks (bench/web-size.ts: the console's first load).
const CommitBrowser = lazyPart(
  () => import('../commits/commit-browser.tsx'),
  'CommitBrowser',
  <Spin style={{ display: 'block', margin: '32px auto' }} />,
);
const WorkflowFormModal = lazyModal(() => import('./workflow-form.modal.tsx'), 'WorkflowFormModal');
const LarkDocsModal = lazyModal(() => import('../wiki/lark-docs.modal.tsx'), 'LarkDocsModal');

/** Custom workflows of type 知识库 follow Lark documents. */
function isWikiWorkflow(row: { contentType: string; manageType?: string | null; repoType?: string | null }): boolean {
  return row.manageType === 'wiki' || row.repoType === 'wiki';
}

interface WorkflowViewProps {
  app: Pick<AppDetail, 'appId' | 'appType' | 'permit'>;
  /** The app's path: the remembered tab is kept per path (cacheUserHistory). */
  appPath: string;
}

/** SPEC §2 workflow view: tabs per workflow (plus 工作流汇总), their update items as a list or a calendar. */
export function WorkflowView({ app, appPath }: WorkflowViewProps) {
  const canEdit = app.permit !== 'view';
  const isMobile = useIsMobile();
  const isLarkEnabled = useIsLarkEnabled();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  // A saved repository workflow is synced by the server: the tabs are read again until its row says how it went.
  const [awaiting, setAwaiting] = useState<{ id: number; since: number } | null>(null);
  const workflows = useWorkflows(app.appId, true, (rows) => isAwaitingFirstSync(rows, awaiting, Date.now()));
  const awaitingNow = isAwaitingFirstSync(workflows.data ?? [], awaiting, Date.now());
  // Until the tabs are read again after the save, the saved row does not say yet whether its sync is done.
  const firstSyncing = awaiting !== null && (awaitingNow || workflows.dataUpdatedAt <= awaiting.since);
  useEffect(() => {
    // Only rows read after the save tell how its sync went.
    if (
      awaiting === null ||
      awaitingNow ||
      workflows.dataUpdatedAt <= awaiting.since ||
      !workflows.data?.some((row) => row.id === awaiting.id)
    )
      return;
    // It synced (or said why not): the open list starts again with what it brought.
    setAwaiting(null);
    void queryClient.invalidateQueries({ queryKey: commitKeys.all }).then(() => setRefreshKey((n) => n + 1));
  }, [awaiting, awaitingNow, workflows.data, workflows.dataUpdatedAt, queryClient]);
  const { reorder, remove, sync } = useWorkflowMutations(app.appId);
  const tabs = useMemo(() => buildTabs(workflows.data ?? []), [workflows.data]);
  const workflowOrder = useMemo(() => tabs.filter((tab) => tab.row !== null).map((tab) => tab.tabName), [tabs]);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [view, setView] = useState<CommitView>('list');
  // Bumped after a sync so the open list starts again from its newest page.
  const [refreshKey, setRefreshKey] = useState(0);
  // A build removed from the package list: the open list starts again, its item now says 已删除.
  useVersionRemoved(
    app.appId,
    useCallback(() => setRefreshKey((n) => n + 1), []),
  );
  const editing = useEditing<WorkflowRow>();
  const [larkDocsOpen, setLarkDocsOpen] = useState(false);

  // A chosen tab that no longer exists (deleted, summary gone) falls back like a fresh visit.
  const activeId =
    chosenId !== null && tabs.some((tab) => tab.id === chosenId)
      ? chosenId
      : pickTab(tabs, [searchParams.get('workflowId'), readCachedWorkflowId(appPath)]);
  const active = tabs.find((tab) => tab.id === activeId) ?? null;
  const select = (id: number): void => {
    setChosenId(id);
    cacheWorkflowId(appPath, String(id));
  };

  const syncNow = (id: number): void => {
    sync.mutate(id, { onSettled: () => setRefreshKey((n) => n + 1) });
  };

  const deleteActive = async (): Promise<void> => {
    if (!active?.row) return;
    const next = tabAfterDelete(tabs, active.id);
    await remove.mutateAsync(active.id);
    select(next);
  };

  if (workflows.isPending)
    return (
      <Card>
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      </Card>
    );
  if (workflows.isError) {
    return (
      <Card>
        <FeatureEmpty title={workflowsText.loadFailed} content={workflows.error.message}>
          <Button onClick={() => void workflows.refetch()}>{workflowsText.retry}</Button>
        </FeatureEmpty>
      </Card>
    );
  }

  const modal = (
    <WorkflowFormModal
      open={editing.open}
      appId={app.appId}
      appType={app.appType}
      record={editing.record}
      onClose={editing.close}
      onSaved={(id, body) => {
        const before = editing.record;
        editing.close();
        void queryClient.invalidateQueries({ queryKey: workflowKeys.list(app.appId) });
        select(id);
        // A new or moved repository: the server syncs it at once (whoever saves it); the page waits for that sync.
        if (syncAfterSave(before, body)) setAwaiting({ id, since: Date.now() });
        // Another committer filter hides and shows stored items: the open list starts again.
        else if (before !== null)
          void queryClient.invalidateQueries({ queryKey: commitKeys.all }).then(() => setRefreshKey((n) => n + 1));
      }}
    />
  );

  if (tabs.length === 0) {
    return (
      <Card data-testid="workflow-view">
        <FeatureEmpty
          title={workflowsText.emptyTitle}
          content={canEdit ? workflowsText.emptyEditor : workflowsText.emptyViewer}
          testId="workflow-empty"
        >
          {canEdit ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={editing.openCreate} data-testid="workflow-add">
              {workflowsText.add}
            </Button>
          ) : null}
        </FeatureEmpty>
        {modal}
      </Card>
    );
  }

  return (
    <Card data-testid="workflow-view" styles={{ body: { paddingTop: 8 } }}>
      <WorkflowTabBar
        tabs={tabs}
        activeId={activeId}
        onChange={select}
        canDrag={canEdit && !reorder.isPending}
        onReorder={(ids) => reorder.mutate(ids)}
        compact={isMobile}
        extra={
          <WorkflowToolbar
            canEdit={canEdit}
            editableName={active?.row ? active.tabName : null}
            view={view}
            onViewChange={setView}
            onAdd={editing.openCreate}
            onEdit={() => (active?.row ? editing.openEdit(active.row) : undefined)}
            onDelete={deleteActive}
            sync={
              active?.row && isSyncable(active.row)
                ? {
                    lastSyncTime: active.row.lastSyncTime,
                    isSyncing: sync.isPending || (firstSyncing && awaiting?.id === active.id),
                    onSync: () => syncNow(active.id),
                  }
                : null
            }
            compact={isMobile}
            onLarkDocs={isLarkEnabled && active?.row && isWikiWorkflow(active.row) ? () => setLarkDocsOpen(true) : null}
          />
        }
      />
      {canEdit && active?.row?.lastSyncError ? (
        <Alert
          type="warning"
          showIcon
          title={active.row.lastSyncError}
          style={{ marginBottom: 12 }}
          data-testid="workflow-sync-error"
        />
      ) : null}
      {active && firstSyncing && awaiting?.id === active.id ? (
        // Its list is drawn once the server's first sync is done, so it does not start again under the reader's eyes.
        <Flex justify="center" align="center" gap={8} style={{ padding: 48 }} data-testid="workflow-first-sync">
          <Spin size="small" />
          <Typography.Text type="secondary">{workflowsText.syncing}</Typography.Text>
        </Flex>
      ) : active ? (
        <CommitBrowser
          source={{ kind: 'workflows', workflowIds: active.workflowIds }}
          mode={active.id === SUMMARY_TAB_ID ? 'summary' : 'workflow'}
          view={view}
          canEdit={canEdit}
          branches={branchNames(active.row?.defaultBranch)}
          refreshKey={refreshKey}
          emptyHint={emptyHintOf(active.row, canEdit)}
          robotUrl={active.row?.robotUrl ?? null}
          workflowOrder={workflowOrder}
        />
      ) : null}
      {modal}
      {isLarkEnabled && active?.row && isWikiWorkflow(active.row) ? (
        <LarkDocsModal workflowId={active.row.id} open={larkDocsOpen} onClose={() => setLarkDocsOpen(false)} />
      ) : null}
    </Card>
  );
}
