import { Card, Tabs } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { RoutePath } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';

export const settingChildren = [
  'user-manage',
  'role-manage',
  'distribute-user',
  'udid',
  'certification',
  'apple_account',
  'system',
  'delivery-log',
  'jobs',
  'storage',
] as const;
type SettingChild = (typeof settingChildren)[number];

function isSettingChild(value: string): value is SettingChild {
  return (settingChildren as readonly string[]).includes(value);
}

/** /home/setting (admins): one tab per child route. */
export function SettingLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const segment = pathname.slice(RoutePath.setting.length + 1).split('/')[0] ?? '';
  const activeKey = isSettingChild(segment) ? segment : 'user-manage';
  return (
    <Card styles={{ body: { paddingTop: 0 } }} data-testid="setting-page">
      <Tabs
        data-testid="setting-tabs"
        activeKey={activeKey}
        onChange={(key) => navigate(`${RoutePath.setting}/${key}`)}
        items={settingChildren.map((key) => ({ key, label: zh.setting.tabs[key] }))}
      />
      <Outlet />
    </Card>
  );
}
