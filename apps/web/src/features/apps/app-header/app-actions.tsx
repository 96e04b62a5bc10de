import type { ReactNode } from 'react';
import { Button, Flex, Tooltip } from 'antd';
import { BellFilled, BellOutlined, CloudUploadOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import type { AppDetail } from '@release/contract';
import { useIsMobile } from '../../../app/use-is-mobile.ts';
import { zh } from '../../../locales/zh-CN.ts';
import { usePublish } from '../publish-button.tsx';
import { useToggleCollect } from '../use-app-detail.ts';

interface ToggleButton {
  type: 'collect' | 'subscribe';
  isOn: boolean;
  label: string;
  icon: ReactNode;
}

/** 收藏 and 订阅 toggles; on mobile they are icon-only and a publish/update button joins them. */
export function AppActions({ app }: { app: AppDetail }) {
  const isMobile = useIsMobile();
  const { toggle, pendingType } = useToggleCollect(app);
  const { label: publishLabel, publish } = usePublish(app);
  const toggles: ToggleButton[] = [
    {
      type: 'collect',
      isOn: app.collected,
      label: app.collected ? zh.appPage.collectedLabel : zh.appPage.collect,
      icon: app.collected ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />,
    },
    {
      type: 'subscribe',
      isOn: app.subscribed,
      label: app.subscribed ? zh.appPage.subscribedLabel : zh.appPage.subscribe,
      icon: app.subscribed ? <BellFilled style={{ color: '#1677ff' }} /> : <BellOutlined />,
    },
  ];

  return (
    <Flex gap={8} wrap justify="center" data-testid="app-actions">
      {toggles.map((item) => {
        const button = (
          <Button
            key={item.type}
            icon={item.icon}
            loading={pendingType === item.type}
            aria-pressed={item.isOn}
            aria-label={item.label}
            data-testid={`app-${item.type}`}
            data-active={item.isOn}
            onClick={() => toggle(item.type)}
          >
            {isMobile ? null : item.label}
          </Button>
        );
        return isMobile ? (
          <Tooltip key={item.type} title={item.label}>
            {button}
          </Tooltip>
        ) : (
          button
        );
      })}
      {isMobile ? (
        <Button type="primary" icon={<CloudUploadOutlined />} onClick={publish} data-testid="app-publish">
          {publishLabel}
        </Button>
      ) : null}
    </Flex>
  );
}
