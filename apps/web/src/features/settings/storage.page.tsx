import { Alert, Button, Card, Col, Flex, Progress, Row, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { platformNames, platformShortNames, type StorageUsage } from '@release/contract';
import { fetchStorageUsage } from '../../api/storage.api.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { formatBytes } from '../versions/version-format.ts';
import { StorageOrphansCard } from './storage-orphans.card.tsx';
import { StorageRetentionCard } from './storage-retention.card.tsx';
import { storageText as text } from './storage.strings.ts';

const USAGE_KEY = ['storage', 'usage'] as const;
const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

function PerApp({ usage }: { usage: StorageUsage }) {
  return (
    <Card size="small" title={text.perApp} data-testid="storage-apps">
      <Flex vertical gap={12}>
        {usage.apps.map((app) => (
          <Flex key={app.appId} vertical gap={2} data-testid="storage-app" data-app-id={app.appId}>
            <Flex justify="space-between" gap={8}>
              <Typography.Text strong ellipsis>
                {app.appName}
              </Typography.Text>
              <Typography.Text data-testid="storage-app-bytes">
                {formatBytes(app.bytes)} · {app.builds} 个
              </Typography.Text>
            </Flex>
            <Progress percent={percentOf(app.bytes, usage.totalBytes)} size="small" />
            <Flex gap={4} wrap>
              {app.platforms.map((p) => (
                <Tag key={p.nativePackageType} style={{ marginInlineEnd: 0 }}>
                  {platformShortNames[p.nativePackageType]} {formatBytes(p.bytes)}
                </Tag>
              ))}
            </Flex>
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}

function Weeks({ usage }: { usage: StorageUsage }) {
  const highest = Math.max(1, ...usage.weeks.map((w) => Math.max(w.addedBytes, w.removedBytes)));
  return (
    <Card size="small" title={text.weeks} data-testid="storage-weeks">
      <Flex gap={4} align="flex-end" style={{ height: 120 }}>
        {usage.weeks.map((w) => (
          <Tooltip
            key={w.weekStart}
            title={`${text.weekOf(dayjs(w.weekStart).format('MM-DD'))}：${text.weekAdded} ${formatBytes(w.addedBytes)}（${w.builds} 个），${text.weekRemoved} ${formatBytes(w.removedBytes)}`}
          >
            <Flex flex={1} gap={1} align="flex-end" style={{ height: '100%', minWidth: 0 }} data-testid="storage-week">
              <div
                style={{ flex: 1, height: `${(w.addedBytes / highest) * 100}%`, minHeight: 1, background: '#1677ff' }}
              />
              <div
                style={{ flex: 1, height: `${(w.removedBytes / highest) * 100}%`, minHeight: 1, background: '#52c41a' }}
              />
            </Flex>
          </Tooltip>
        ))}
      </Flex>
      <Flex justify="space-between" style={{ marginTop: 4 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {dayjs(usage.weeks[0]?.weekStart).format('MM-DD')}
        </Typography.Text>
        <Flex gap={12}>
          <Typography.Text style={{ fontSize: 12, color: '#1677ff' }}>■ {text.weekAdded}</Typography.Text>
          <Typography.Text style={{ fontSize: 12, color: '#52c41a' }}>■ {text.weekRemoved}</Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}

function Largest({ usage, compact }: { usage: StorageUsage; compact: boolean }) {
  return (
    <Card size="small" title={text.largest} data-testid="storage-largest">
      <Table<StorageUsage['largest'][number]>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={usage.largest}
        onRow={(row) => ({ 'data-testid': 'storage-largest-build', 'data-version-id': row.id }) as never}
        columns={[
          {
            title: text.version,
            key: 'version',
            render: (_, b) => (
              <Flex vertical gap={2}>
                <Typography.Text strong>
                  {b.appName} #{b.indexNo} {b.appVersion ?? ''}
                  {b.build ? ` (${b.build})` : ''}
                </Typography.Text>
                <Flex gap={4} wrap>
                  <Tag style={{ marginInlineEnd: 0 }}>{platformNames[b.nativePackageType]}</Tag>
                  {b.pinned && (
                    <Tag color="gold" style={{ marginInlineEnd: 0 }}>
                      {text.pinned}
                    </Tag>
                  )}
                </Flex>
                {compact && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {dayjs(b.createTime).format('YYYY-MM-DD')}
                  </Typography.Text>
                )}
              </Flex>
            ),
          },
          { title: text.size, dataIndex: 'appSize', width: 100, render: (size: number) => formatBytes(size) },
          ...(compact
            ? []
            : [
                {
                  title: text.uploaded,
                  dataIndex: 'createTime',
                  width: 120,
                  render: (time: number) => dayjs(time).format('YYYY-MM-DD'),
                },
              ]),
        ]}
      />
    </Card>
  );
}

/** /home/setting/storage (admins): the default retention rule, the space builds take, orphaned files. */
export function StoragePage() {
  const isMobile = useIsMobile();
  const usage = useQuery({ queryKey: USAGE_KEY, queryFn: ({ signal }) => fetchStorageUsage(signal) });
  const data = usage.data;
  return (
    <Flex vertical gap={16} data-testid="storage-page">
      <StorageRetentionCard />
      <Flex gap={8} wrap align="center" justify="space-between">
        <Typography.Text type="secondary">{text.intro}</Typography.Text>
        <Button
          icon={<ReloadOutlined />}
          loading={usage.isFetching}
          onClick={() => void usage.refetch()}
          data-testid="storage-refresh"
        >
          {text.refresh}
        </Button>
      </Flex>
      {usage.isError && !data && (
        <Alert
          type="error"
          showIcon
          data-testid="storage-error"
          title={text.loadFailed}
          description={usage.error.message}
          action={
            <Button size="small" onClick={() => void usage.refetch()}>
              {text.retry}
            </Button>
          }
        />
      )}
      {usage.isLoading && <Card size="small" loading />}
      {data && (
        <>
          <Row gutter={[12, 12]}>
            <Col xs={12} md={6}>
              <Statistic title={text.total} value={formatBytes(data.totalBytes)} data-testid="storage-total" />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={text.builds} value={data.builds} data-testid="storage-builds" />
            </Col>
            <Col xs={24} md={12}>
              <Typography.Text type="secondary">{text.perPlatform}</Typography.Text>
              <Flex gap={4} wrap style={{ marginTop: 4 }} data-testid="storage-platforms">
                {data.platforms.map((p) => (
                  <Tag key={p.nativePackageType} style={{ marginInlineEnd: 0 }}>
                    {platformNames[p.nativePackageType]} {formatBytes(p.bytes)}（{percentOf(p.bytes, data.totalBytes)}
                    %）
                  </Tag>
                ))}
              </Flex>
              <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="storage-store">
                {text.store(text.stores[data.store])}
              </Typography.Text>
            </Col>
          </Row>
          {data.builds === 0 ? (
            <FeatureEmpty title={text.empty} content={text.emptyHint} testId="storage-empty" />
          ) : (
            <>
              <PerApp usage={data} />
              <Largest usage={data} compact={isMobile} />
              <Weeks usage={data} />
            </>
          )}
        </>
      )}
      <StorageOrphansCard onRemoved={() => void usage.refetch()} />
    </Flex>
  );
}
