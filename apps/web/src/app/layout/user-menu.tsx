import { useState } from 'react';
import { Button, Dropdown, type MenuProps } from 'antd';
import {
  DownOutlined,
  KeyOutlined,
  LinkOutlined,
  LogoutOutlined,
  MobileOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { RoutePath } from '@release/contract';
import { logout } from '../../api/auth.api.ts';
import { enrollText } from '../../features/device-enroll/device-enroll.strings.ts';
import { zh } from '../../locales/zh-CN.ts';
import { lazyModal } from '../components/lazy-part.tsx';
import { TOKENS_PATH } from '../paths.ts';
import { queryClient } from '../query-client.ts';
import { clearSession, useSession } from '../session.store.ts';
import { useIsMobile } from '../use-is-mobile.ts';

const LinkedAccountsModal = lazyModal(
  () => import('../../features/auth/linked-accounts.modal.tsx'),
  'LinkedAccountsModal',
);
const MyDeviceModal = lazyModal(() => import('../../features/device-enroll/my-device.modal.tsx'), 'MyDeviceModal');

/** User dropdown: API 令牌, 账号绑定 (Lark / WeCom accounts), 注册我的设备 (this user's iPhone UDID), and 退出登录 (ends the server session, forgets it here, goes to /login). */
export function UserMenu() {
  const session = useSession();
  const isMobile = useIsMobile();
  const navigate = useNavigate();
  const [isLinkedOpen, setIsLinkedOpen] = useState(false);
  const [isDeviceOpen, setIsDeviceOpen] = useState(false);

  const signOut = async (): Promise<void> => {
    try {
      await logout();
    } catch {
      // The session is forgotten locally even when the server cannot be reached.
    }
    void navigate(RoutePath.login, { replace: true });
    clearSession();
    queryClient.clear();
  };

  const items: MenuProps['items'] = [
    { key: 'who', label: `${session.username}（${zh.header.role(session.roleLevel)}）`, disabled: true },
    { type: 'divider' },
    {
      key: 'tokens',
      icon: <KeyOutlined />,
      label: <span data-testid="user-menu-tokens">{zh.header.apiTokens}</span>,
      onClick: () => navigate(TOKENS_PATH),
    },
    {
      key: 'linked',
      icon: <LinkOutlined />,
      label: <span data-testid="user-menu-linked">{zh.linkedAccounts.menu}</span>,
      onClick: () => setIsLinkedOpen(true),
    },
    {
      key: 'device',
      icon: <MobileOutlined />,
      label: <span data-testid="user-menu-device">{enrollText.mine}</span>,
      onClick: () => setIsDeviceOpen(true),
    },
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      label: <span data-testid="logout">{zh.header.logout}</span>,
      onClick: () => void signOut(),
    },
  ];

  return (
    <>
      <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
        <Button type="text" data-testid="user-menu" icon={<UserOutlined />}>
          {isMobile ? null : session.username}
          {isMobile ? null : <DownOutlined style={{ fontSize: 10 }} />}
        </Button>
      </Dropdown>
      <LinkedAccountsModal open={isLinkedOpen} onClose={() => setIsLinkedOpen(false)} />
      <MyDeviceModal open={isDeviceOpen} onClose={() => setIsDeviceOpen(false)} />
    </>
  );
}
