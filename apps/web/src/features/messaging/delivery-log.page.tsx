import { useState } from 'react';
import { Button, Flex, Select, Table, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { DEFAULT_TABLE_PAGE_SIZE, deliveryStatuses, type DeliveryRow, type DeliveryStatus } from '@release/contract';
import { fetchDeliveries, messagingKeys, retryDelivery } from '../../api/messaging.api.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { toast } from '../../app/feedback.ts';
import { tablePagination } from '../../app/components/table-pagination.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { messagingText } from './messaging.strings.ts';

const text = messagingText.log;
const statusColor: Record<DeliveryStatus, string> = { pending: 'processing', sent: 'success', failed: 'error' };

/** /home/setting/delivery-log (admins): every push with the receiver's answer; a failed one can be sent again. */
export function DeliveryLogPage() {
  const queryClient = useQueryClient();
  const isMobile = useIsMobile();
  const [status, setStatus] = useState<DeliveryStatus | undefined>(undefined);
  const [page, setPage] = useState({ pageNo: 1, pageSize: DEFAULT_TABLE_PAGE_SIZE });
  const query = { status, ...page };
  const list = useQuery({
    queryKey: messagingKeys.list(query),
    queryFn: ({ signal }) => fetchDeliveries(query, signal),
    placeholderData: keepPreviousData,
  });
  const retry = useMutation({
    mutationFn: retryDelivery,
    onSuccess: () => {
      toast.success(text.retried);
      void queryClient.invalidateQueries({ queryKey: messagingKeys.all });
    },
  });

  const columns = [
    {
      title: text.columns.time,
      dataIndex: 'createTime',
      width: 150,
      render: (t: number) => dayjs(t).format('YYYY-MM-DD HH:mm:ss'),
    },
    { title: text.columns.app, dataIndex: 'appName', width: 120, responsive: ['md' as const] },
    {
      title: text.columns.title,
      dataIndex: 'title',
      width: 220,
      render: (title: string) => (
        <Typography.Text ellipsis={{ tooltip: title }} style={{ maxWidth: 200 }}>
          {title}
        </Typography.Text>
      ),
    },
    {
      title: text.columns.target,
      key: 'target',
      width: 220,
      render: (_: unknown, row: DeliveryRow) => (
        <div style={{ maxWidth: 200 }}>
          <div>{text.kinds[row.receiverKind]}</div>
          <Typography.Text type="secondary" ellipsis={{ tooltip: row.target }} style={{ fontSize: 12, maxWidth: 200 }}>
            {row.target}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: text.columns.status,
      dataIndex: 'status',
      width: 90,
      render: (s: DeliveryStatus) => (
        <Tag color={statusColor[s]} data-testid={`delivery-status-${s}`}>
          {text.status[s]}
        </Tag>
      ),
    },
    {
      title: text.columns.reply,
      key: 'reply',
      width: 260,
      render: (_: unknown, row: DeliveryRow) =>
        row.receiverCode === null && !row.receiverMessage ? (
          '-'
        ) : (
          <Typography.Paragraph
            ellipsis={{ rows: 2, tooltip: row.receiverMessage }}
            style={{ marginBottom: 0, maxWidth: 240 }}
          >
            {row.receiverCode !== null ? `[${row.receiverCode}] ` : ''}
            {row.receiverMessage ?? ''}
          </Typography.Paragraph>
        ),
    },
    { title: text.columns.attempts, dataIndex: 'attempts', width: 80, responsive: ['md' as const] },
    {
      title: text.columns.by,
      dataIndex: 'requestedBy',
      width: 100,
      responsive: ['md' as const],
      render: (by: string | null) => by ?? text.auto,
    },
    {
      title: text.columns.action,
      key: 'action',
      width: 80,
      render: (_: unknown, row: DeliveryRow) =>
        row.status === 'failed' ? (
          <Button
            size="small"
            loading={retry.isPending && retry.variables === row.id}
            onClick={() => retry.mutate(row.id)}
            data-testid={`delivery-retry-${row.id}`}
          >
            {text.retry}
          </Button>
        ) : null,
    },
  ];

  return (
    <div data-testid="delivery-log-page">
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Select
          style={{ width: 140 }}
          value={status ?? 'all'}
          onChange={(value: string) => {
            setStatus(value === 'all' ? undefined : (value as DeliveryStatus));
            setPage((p) => ({ ...p, pageNo: 1 }));
          }}
          options={[
            { value: 'all', label: text.allStatus },
            ...deliveryStatuses.map((s) => ({ value: s, label: text.status[s] })),
          ]}
          data-testid="delivery-status-filter"
        />
        <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()}>
          {text.refresh}
        </Button>
      </Flex>
      <Table<DeliveryRow>
        rowKey="id"
        size={isMobile ? 'small' : 'middle'}
        loading={list.isFetching}
        dataSource={list.data?.rows ?? []}
        columns={columns}
        locale={{
          emptyText: status ? (
            <FeatureEmpty title={text.emptyFiltered} content={text.emptyFilteredContent} />
          ) : (
            <FeatureEmpty title={text.empty} content={text.emptyContent} />
          ),
        }}
        scroll={{ x: isMobile ? 760 : 1200 }}
        pagination={tablePagination({
          total: list.data?.total ?? 0,
          ...page,
          onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }),
        })}
      />
    </div>
  );
}
