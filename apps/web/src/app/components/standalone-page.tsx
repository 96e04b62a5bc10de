import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
import { zh } from '../../locales/zh-CN.ts';

/** Frame for pages opened outside the home layout (publish, download, commit detail...). */
export function StandalonePage({ children }: { children: ReactNode }) {
  return (
    <div className="standalone-page">
      <Typography.Title level={3}>{zh.appTitle}</Typography.Title>
      <Card style={{ width: '100%', maxWidth: 720 }}>{children}</Card>
    </div>
  );
}
