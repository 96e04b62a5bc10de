import { Button, Dropdown, Space, Tooltip } from 'antd';
import { CloudUploadOutlined, DownOutlined } from '@ant-design/icons';
import { RoutePath, type AppListItem } from '@release/contract';
import { toast } from '../../app/feedback.ts';
import { useIsAdmin } from '../../app/session.store.ts';
import { zh } from '../../locales/zh-CN.ts';
import { useAppDetail } from './use-app-detail.ts';

interface PublishButtonProps {
  currentApp: AppListItem | null;
  compact: boolean;
  onAddApp: () => void;
}

/**
 * 发布/更新应用 (admins) or 更新应用: opens /publish in a new window for the current app. Someone who may
 * only download it is told so in place (the new window would have nothing to offer them).
 */
export function usePublish(currentApp: Pick<AppListItem, 'appId'> | null): { label: string; publish: () => void } {
  const isAdmin = useIsAdmin();
  // The app page's own detail query (cached): its permit says whether this user may publish to it.
  const detail = useAppDetail(isAdmin ? null : (currentApp?.appId ?? null));
  const publish = (): void => {
    if (!currentApp) {
      toast.warning(isAdmin ? zh.sider.needAppAdmin : zh.sider.needAppUser);
      return;
    }
    if (detail.data?.appId === currentApp.appId && detail.data.permit === 'view') {
      toast.warning(zh.sider.needEditPermit);
      return;
    }
    window.open(`${RoutePath.publish}?appId=${currentApp.appId}`, '_blank', 'noopener');
  };
  return { label: isAdmin ? zh.sider.publishAdmin : zh.sider.publishUser, publish };
}

export function PublishButton({ currentApp, compact, onAddApp }: PublishButtonProps) {
  const isAdmin = useIsAdmin();
  const { label, publish } = usePublish(currentApp);

  if (compact) {
    return (
      <Tooltip title={label} placement="right">
        <Button
          type="primary"
          icon={<CloudUploadOutlined />}
          onClick={publish}
          aria-label={label}
          data-testid="publish-button"
        />
      </Tooltip>
    );
  }
  const main = (
    <Button
      type="primary"
      icon={<CloudUploadOutlined />}
      onClick={publish}
      data-testid="publish-button"
      style={{ flex: 1 }}
    >
      {label}
    </Button>
  );
  if (!isAdmin) return <div style={{ display: 'flex' }}>{main}</div>;
  return (
    <Space.Compact style={{ display: 'flex' }}>
      {main}
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{
          items: [{ key: 'add', label: <span data-testid="add-blank-app">{zh.sider.addBlankApp}</span> }],
          onClick: onAddApp,
        }}
      >
        <Button type="primary" icon={<DownOutlined />} aria-label={zh.sider.more} data-testid="publish-more" />
      </Dropdown>
    </Space.Compact>
  );
}
