import { Avatar } from 'antd';
import type { AppListItem } from '@release/contract';

const palette = ['#1677ff', '#52c41a', '#fa8c16', '#eb2f96', '#722ed1', '#13c2c2', '#fa541c', '#2f54eb'];

/** The app's icon, or its first letter on a colour picked from its id. */
export function AppIcon({
  app,
  size = 32,
}: {
  app: Pick<AppListItem, 'appId' | 'appName' | 'appIcon'>;
  size?: number;
}) {
  if (app.appIcon) return <Avatar shape="square" size={size} src={app.appIcon} alt={app.appName} />;
  return (
    <Avatar shape="square" size={size} style={{ background: palette[app.appId % palette.length], flex: 'none' }}>
      {app.appName.slice(0, 1).toUpperCase()}
    </Avatar>
  );
}
