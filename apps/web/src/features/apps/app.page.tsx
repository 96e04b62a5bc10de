import { useEffect, useState } from 'react';
import { Card, Flex, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { AppMessages } from '@release/contract';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { lazyModal, lazyPart } from '../../app/components/lazy-part.tsx';
import { useDocumentTitle } from '../../app/use-document-title.ts';
import { AppPackagesCard } from '../versions/app-packages.card.tsx';
import { AppViewBar } from '../tasks/app-view-bar.tsx';
import { useAppView } from '../tasks/use-app-view.ts';
import { zh } from '../../locales/zh-CN.ts';
import { AppFormModal, useAddAppModal } from './add-app.modal.tsx';
import { AppEmpty } from './app-empty.tsx';
import type { SavedApp } from './app-form/app-form.modal.tsx';
import { AppHeaderCard } from './app-header/app-header-card.tsx';
import { setCurrentAppId } from './current-app.store.ts';
import { refreshAfterAppSave, useAppDetail } from './use-app-detail.ts';
import { useAppByPath } from './use-app-list.ts';
import { appPagePath } from './use-choose-app.ts';
import { cacheWorkflowId } from './workflow-history.ts';

const spinner = <Spin style={{ display: 'block', margin: '64px auto' }} />;
// The workflows (their tabs, commits, dialogs) and the task view (任务视图) come in their own chunks, beside the
// packages' list: the app page's first load stays within the console's budget (bench/web-size.ts).
const TaskView = lazyPart(() => import('../tasks/task-view.tsx'), 'TaskView', spinner);
const WorkflowView = lazyPart(() => import('../workflows/workflow-view.tsx'), 'WorkflowView');
// `?changes=<versionId>`: the link of a version's announcement opens that build's 变更 (issue 19).
const VersionChangesDrawer = lazyModal(
  () => import('../versions/version-changes.drawer.tsx'),
  'VersionChangesDrawer',
  (props: { version: unknown }) => props.version !== null,
);

/** /home/app/:path (appWithPath): selects the app by path, caches a workflowId query, shows GET /api/app. */
export function AppPage() {
  const { path = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const workflowId = searchParams.get('workflowId');
  const linkedChanges = Number(searchParams.get('changes')) || null;
  const closeLinkedChanges = () =>
    setSearchParams(
      (params) => {
        params.delete('changes');
        return params;
      },
      { replace: true },
    );
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const resolved = useAppByPath(path);
  const appId = resolved.app?.appId ?? null;
  const detail = useAppDetail(appId);
  const [isSettingsOpen, setIsSettingsOpen] = useState(false);
  const [addAppModal, openAddApp] = useAddAppModal();
  const view = useAppView(appId);
  useDocumentTitle(detail.data?.appName ?? resolved.app?.appName ?? zh.menu.app);

  useEffect(() => {
    if (workflowId) cacheWorkflowId(path, workflowId);
  }, [path, workflowId]);

  useEffect(() => {
    if (appId !== null) setCurrentAppId(appId);
  }, [appId]);

  const settingsSaved = async (saved: SavedApp): Promise<void> => {
    setIsSettingsOpen(false);
    await refreshAfterAppSave(queryClient, saved.appId);
    // The page is addressed by path: follow a changed one.
    if (saved.path !== path) void navigate(appPagePath(saved), { replace: true });
  };

  if (resolved.isResolving || (appId !== null && detail.isPending)) return spinner;
  if (!detail.data) {
    return (
      <Card data-testid="app-page">
        {resolved.hasNoApps ? (
          <AppEmpty onAdd={openAddApp} />
        ) : (
          <FeatureEmpty
            title={zh.appPage.notFoundTitle}
            content={detail.isError ? AppMessages.appNotFound : zh.appPage.notFoundContent}
          />
        )}
        {addAppModal}
      </Card>
    );
  }
  return (
    <Flex vertical gap={16} data-testid="app-page">
      <AppHeaderCard app={detail.data} onOpenSettings={() => setIsSettingsOpen(true)} />
      <AppViewBar view={view} />
      {view.mode === 'task' ? (
        <TaskView key={detail.data.appId} app={detail.data} setting={view.setting} />
      ) : (
        <>
          <WorkflowView key={detail.data.appId} app={detail.data} appPath={path} />
          <AppPackagesCard key={detail.data.appId} app={detail.data} />
        </>
      )}
      <VersionChangesDrawer version={linkedChanges ? { id: linkedChanges } : null} onClose={closeLinkedChanges} />
      <AppFormModal
        open={isSettingsOpen}
        app={detail.data}
        onClose={() => setIsSettingsOpen(false)}
        onSaved={(saved) => void settingsSaved(saved)}
      />
    </Flex>
  );
}
