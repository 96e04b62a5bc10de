import { useState } from 'react';
import { Button, Card, Divider, Flex, Pagination, Segmented, Spin, Typography } from 'antd';
import { NOTIFICATION_LIST_SIZE } from '@release/contract';
import type { NotificationStateFilter } from '../../api/messages.api.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { zh } from '../../locales/zh-CN.ts';
import { NotificationItem } from './notification-item.tsx';
import { useMarkNotifications, useNotificationList } from './use-notifications.ts';

const stateOptions: { value: NotificationStateFilter; label: string }[] = [
  { value: 'NOT_READ', label: zh.notification.states.NOT_READ },
  { value: 'READ', label: zh.notification.states.READ },
  { value: 'IGNORE', label: zh.notification.states.IGNORE },
  { value: 'all', label: zh.notification.states.all },
];

/** /home/notification: every notice, filtered by state, with the bell's actions. */
export function NotificationPage() {
  const [state, setState] = useState<NotificationStateFilter>('NOT_READ');
  const [current, setCurrent] = useState(1);
  const { data, isLoading } = useNotificationList(state, current);
  const mark = useMarkNotifications();
  const rows = data?.rows ?? [];
  const total = data?.total ?? 0;

  return (
    <Card
      data-testid="notification-page"
      title={zh.notification.pageTitle}
      extra={
        <Button data-testid="notification-page-read-all" onClick={() => mark.mutate({ state: 'READ' })}>
          {zh.notification.readAll}
        </Button>
      }
    >
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Segmented<NotificationStateFilter>
          options={stateOptions}
          value={state}
          onChange={(value) => {
            setState(value);
            setCurrent(1);
          }}
        />
        <Typography.Text type="secondary">{zh.common.total(total)}</Typography.Text>
      </Flex>
      <Spin spinning={isLoading}>
        {rows.length === 0 && !isLoading ? (
          <FeatureEmpty title={zh.notification.empty} content={zh.notification.emptyContent} />
        ) : (
          rows.map((row) => (
            <div key={row.id}>
              <NotificationItem row={row} showState onIgnore={(r) => mark.mutate({ id: r.id, state: 'IGNORE' })} />
              <Divider style={{ margin: 0 }} />
            </div>
          ))
        )}
      </Spin>
      {total > NOTIFICATION_LIST_SIZE ? (
        <Pagination
          style={{ marginTop: 16, textAlign: 'right' }}
          current={current}
          pageSize={NOTIFICATION_LIST_SIZE}
          total={total}
          showSizeChanger={false}
          onChange={setCurrent}
        />
      ) : null}
    </Card>
  );
}
