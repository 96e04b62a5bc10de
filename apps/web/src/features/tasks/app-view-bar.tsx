import { Button, Dropdown, Flex, Segmented, Tooltip } from 'antd';
import { AppstoreAddOutlined, SettingOutlined } from '@ant-design/icons';
import { useIsAdmin } from '../../app/session.store.ts';
import type { AppViewMode, AppViewState } from './use-app-view.ts';
import { tasksText as t } from './tasks.strings.ts';

/**
 * The workflow / task view toggle of the app page — one 任务视图 control. Admins turn the task view on with a
 * button where the toggle would be, and off from a small settings menu beside the toggle.
 */
export function AppViewBar({ view }: { view: AppViewState }) {
  const isAdmin = useIsAdmin();
  if (!view.isEnabled && !isAdmin) return null;
  if (!view.isEnabled) {
    return (
      <Flex justify="flex-end" data-testid="app-view-bar">
        <Tooltip title={t.enableHint}>
          <Button
            size="small"
            type="dashed"
            icon={<AppstoreAddOutlined />}
            loading={view.isSaving}
            onClick={() => view.setEnabled(true)}
            data-testid="task-view-switch"
          >
            {t.enable}
          </Button>
        </Tooltip>
      </Flex>
    );
  }
  return (
    <Flex justify="space-between" align="center" gap={12} wrap data-testid="app-view-bar">
      <Segmented<AppViewMode>
        data-testid="app-view-mode"
        value={view.mode}
        onChange={view.choose}
        options={[
          { value: 'workflow', label: t.views.workflow },
          { value: 'task', label: t.views.task },
        ]}
      />
      {isAdmin ? (
        <Dropdown
          trigger={['click']}
          placement="bottomRight"
          menu={{
            items: [
              {
                key: 'off',
                label: (
                  <Tooltip title={t.disableHint} placement="left">
                    <span data-testid="task-view-off">{t.disable}</span>
                  </Tooltip>
                ),
              },
            ],
            onClick: () => view.setEnabled(false),
          }}
        >
          <Button
            size="small"
            type="text"
            icon={<SettingOutlined />}
            loading={view.isSaving}
            aria-label={t.viewSettings}
            data-testid="task-view-settings"
          />
        </Dropdown>
      ) : null}
    </Flex>
  );
}
