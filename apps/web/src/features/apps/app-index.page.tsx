import { Navigate } from 'react-router-dom';
import { Card, Spin } from 'antd';
import { AppEmpty } from './app-empty.tsx';
import { useAddAppModal } from './add-app.modal.tsx';
import { useAppList, useCurrentApp } from './use-app-list.ts';
import { appPagePath } from './use-choose-app.ts';

/** /home/app: opens the current app, or shows the no-app empty state. */
export function AppIndexPage() {
  const list = useAppList();
  const currentApp = useCurrentApp(list.apps, list.isLoaded);
  const [addAppModal, openAddApp] = useAddAppModal();
  if (list.isLoading) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (currentApp) return <Navigate to={appPagePath(currentApp)} replace />;
  return (
    <Card data-testid="app-page">
      <AppEmpty onAdd={openAddApp} />
      {addAppModal}
    </Card>
  );
}
