import { Flex, Segmented, Switch, Tooltip, Typography } from 'antd';
import { useIsAdmin } from '../../app/session.store.ts';
import type { AppViewMode, AppViewState } from './use-app-view.ts';
import { tasksText as t } from './tasks.strings.ts';

/** The workflow / task view toggle of the app page; admins also switch the task view on or off for the app. */
export function AppViewBar({ view }: { view: AppViewState }) {
  const isAdmin = useIsAdmin();
  if (!view.isEnabled && !isAdmin) return null;
  return (
    <Flex justify="space-between" align="center" gap={12} wrap data-testid="app-view-bar">
      {view.isEnabled ? (
        <Segmented<AppViewMode>
          data-testid="app-view-mode"
          value={view.mode}
          onChange={view.choose}
          options={[
            { value: 'workflow', label: t.views.workflow },
            { value: 'task', label: t.views.task },
          ]}
        />
      ) : (
        <span />
      )}
      {isAdmin ? (
        <Tooltip title={t.enableHint}>
          <Flex align="center" gap={8}>
            <Typography.Text type="secondary">{t.enableSwitch}</Typography.Text>
            <Switch size="small" data-testid="task-view-switch" aria-label={t.enableSwitch} checked={view.isEnabled} loading={view.isSaving} onChange={view.setEnabled} />
          </Flex>
        </Tooltip>
      ) : null}
    </Flex>
  );
}
