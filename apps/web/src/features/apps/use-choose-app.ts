import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { RoutePath, type AppListItem } from '@release/contract';
import { useMarkNotifications } from '../notifications/use-notifications.ts';
import { getCurrentAppId, setCurrentAppId } from './current-app.store.ts';

export function appPagePath(app: Pick<AppListItem, 'path'>): string {
  return `${RoutePath.app}/${encodeURIComponent(app.path)}`;
}

/** SPEC §2: choosing the current app again with unread notices marks them read; then it opens. */
export function useChooseApp(): (app: AppListItem) => void {
  const navigate = useNavigate();
  const mark = useMarkNotifications();
  return useCallback(
    (app: AppListItem) => {
      if (app.unreadMessage > 0 && app.appId === getCurrentAppId()) mark.mutate({ appId: app.appId, state: 'READ' });
      setCurrentAppId(app.appId);
      void navigate(appPagePath(app));
    },
    [mark, navigate],
  );
}
