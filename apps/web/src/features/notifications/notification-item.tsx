import { Button, Flex, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import type { NotificationRow } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';

interface NotificationItemProps {
  row: NotificationRow;
  showState?: boolean;
  onIgnore?: (row: NotificationRow) => void;
}

const stateColors: Record<NotificationRow['state'], string> = { NOT_READ: 'blue', READ: 'default', IGNORE: 'default' };

/** One notice: app, what changed, who and when (relative time). */
export function NotificationItem({ row, showState = false, onIgnore }: NotificationItemProps) {
  const { appName, description, username } = row.messageInfo;
  return (
    <Flex gap={8} align="flex-start" data-testid="notification-item" style={{ padding: '10px 0' }}>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Flex gap={6} align="center" wrap>
          <Typography.Text strong>{appName}</Typography.Text>
          {showState ? <Tag color={stateColors[row.state]}>{zh.notification.states[row.state]}</Tag> : null}
        </Flex>
        {description ? (
          <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: '2px 0' }}>
            {description}
          </Typography.Paragraph>
        ) : null}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {zh.notification.updatedBy(username)} · {dayjs(row.createTime).fromNow()}
        </Typography.Text>
      </div>
      {onIgnore && row.state === 'NOT_READ' ? (
        <Button size="small" type="link" data-testid="notification-ignore" onClick={() => onIgnore(row)}>
          {zh.notification.ignore}
        </Button>
      ) : null}
    </Flex>
  );
}
