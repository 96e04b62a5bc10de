import { Alert, Card, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { JobQueueRow } from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchJobQueue } from '../../api/system.api.ts';
import { durationText, jobQueueText as text } from './job-schedules.strings.ts';

/** The durable job queue per kind on 设置 → 后台任务: waiting, running, failed, and how long the oldest has waited. */
export function JobQueueCard() {
  const queue = useQuery({
    queryKey: queryKeys.jobQueue,
    queryFn: ({ signal }) => fetchJobQueue(signal),
    refetchInterval: 10_000,
  });
  return (
    <Card size="small" title={text.title} data-testid="job-queue" style={{ marginTop: 12 }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {text.intro}
      </Typography.Paragraph>
      {queue.isError && !queue.data ? (
        <Alert type="error" showIcon title={text.loadFailed} description={queue.error.message} />
      ) : (
        <Table<JobQueueRow>
          size="small"
          rowKey="kind"
          loading={queue.isLoading}
          dataSource={queue.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: text.empty }}
          onRow={(row) => ({ 'data-testid': `job-queue-${row.kind}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: text.kind, dataIndex: 'kind' },
            { title: text.pending, dataIndex: 'pending', align: 'right' },
            { title: text.running, dataIndex: 'running', align: 'right' },
            { title: text.failed, dataIndex: 'failed', align: 'right' },
            {
              title: text.oldest,
              dataIndex: 'oldestPendingAgeMs',
              align: 'right',
              render: (ms: number) => (ms > 0 ? durationText(ms) : '-'),
            },
          ]}
        />
      )}
    </Card>
  );
}
