import { Alert, Button, Drawer, Empty, Flex, List, Spin, Tag, Typography } from 'antd';
import { MobileOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { AppVersionRow, VersionHolders } from '@release/contract';
import { fetchVersionHolders } from '../../api/install-stats.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { versionTitle } from '../versions/version-format.ts';
import { statsText as text } from './install-stats.strings.ts';

const deviceName = (d: { family: string; os: string | null }) => (d.os ? `${d.family} · ${d.os}` : d.family);

function HoldersBody({ holders }: { holders: VersionHolders }) {
  return (
    <Flex vertical gap={16}>
      <section>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {text.holdersUsers}
        </Typography.Title>
        {holders.users.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text.holdersEmpty} data-testid="holders-empty">
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {text.holdersEmptyHint}
            </Typography.Text>
          </Empty>
        ) : (
          <List
            size="small"
            dataSource={holders.users}
            rowKey={(u) => `${u.userId}-${u.family}-${u.os ?? ''}`}
            renderItem={(u) => (
              <List.Item data-testid="holder" data-user-id={u.userId} style={{ paddingInline: 0 }}>
                <Flex justify="space-between" gap={8} wrap style={{ width: '100%' }}>
                  <Typography.Text strong data-testid="holder-name">
                    <UserOutlined /> {u.username}
                  </Typography.Text>
                  <Typography.Text type="secondary" data-testid="holder-device">
                    {deviceName(u)} · {dayjs(u.lastTime).format('YYYY-MM-DD HH:mm')}
                  </Typography.Text>
                </Flex>
              </List.Item>
            )}
          />
        )}
      </section>
      <section>
        <Typography.Title level={5} style={{ margin: '0 0 8px' }}>
          {text.holdersDevices}
        </Typography.Title>
        {holders.devices.length === 0 ? (
          <Typography.Text type="secondary">{text.holdersNoDevices}</Typography.Text>
        ) : (
          <Flex gap={8} wrap>
            {holders.devices.map((d) => (
              <Tag key={`${d.family}-${d.os ?? ''}`} icon={<MobileOutlined />} data-testid="holder-devices">
                {deviceName(d)}：{text.deviceCount(d.count)}
              </Tag>
            ))}
          </Flex>
        )}
      </section>
    </Flex>
  );
}

/** 谁装了这个版本: the signed-in users who downloaded or installed a build, with device and time (issue 20). */
export function VersionHoldersDrawer({ version, onClose }: { version: AppVersionRow | null; onClose: () => void }) {
  const isMobile = useIsMobile();
  const holders = useQuery({
    queryKey: queryKeys.versionHolders(version?.id ?? 0),
    queryFn: ({ signal }) => fetchVersionHolders(version?.id ?? 0, signal),
    enabled: version !== null,
  });
  return (
    <Drawer
      open={version !== null}
      onClose={onClose}
      width={isMobile ? '100%' : 480}
      title={version ? text.holdersTitle(versionTitle(version)) : ''}
      destroyOnHidden
      data-testid="version-holders"
    >
      {holders.isPending ? (
        <Flex justify="center" style={{ padding: 32 }}>
          <Spin tip={text.loading}>
            <div style={{ width: 120, height: 40 }} />
          </Spin>
        </Flex>
      ) : holders.isError ? (
        <Alert
          type="error"
          showIcon
          title={text.loadFailed}
          description={holders.error.message}
          action={<Button onClick={() => void holders.refetch()}>{text.retry}</Button>}
        />
      ) : (
        <HoldersBody holders={holders.data} />
      )}
    </Drawer>
  );
}
