import { useEffect } from 'react';
import { Card, Flex, Spin } from 'antd';
import { useParams, useSearchParams } from 'react-router-dom';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { zh } from '../../locales/zh-CN.ts';
import { AppHeaderCard } from './app-header-card.tsx';
import { setCurrentAppId } from './current-app.store.ts';
import { useAppList } from './use-app-list.ts';
import { cacheWorkflowId } from './workflow-history.ts';

/** /home/app/:path (appWithPath): selects the app by path and caches a workflowId query. */
export function AppPage() {
  const { path = '' } = useParams();
  const [searchParams] = useSearchParams();
  const workflowId = searchParams.get('workflowId');
  const list = useAppList();
  const app = list.apps.find((candidate) => candidate.path === path) ?? null;

  useEffect(() => {
    if (workflowId) cacheWorkflowId(path, workflowId);
  }, [path, workflowId]);

  useEffect(() => {
    if (app) setCurrentAppId(app.appId);
  }, [app]);

  if (list.isLoading) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (!app) {
    return (
      <Card data-testid="app-page">
        <FeatureEmpty title={zh.appPage.notFoundTitle} content={zh.appPage.notFoundContent} />
      </Card>
    );
  }
  return (
    <Flex vertical gap={16} data-testid="app-page">
      <AppHeaderCard app={app} />
      <Card>
        <FeatureEmpty title={zh.appPage.workflowTitle} content={zh.appPage.workflowContent} />
      </Card>
    </Flex>
  );
}
