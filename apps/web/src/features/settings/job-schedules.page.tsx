import { Alert, Button, Card, Descriptions, Flex, Switch, Tag, Typography } from 'antd';
import { PlayCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { JobScheduleRow } from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchJobSchedules, runJobScheduleNow, setJobScheduleEnabled } from '../../api/system.api.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { toast } from '../../app/feedback.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { JobQueueCard } from './job-queue.card.tsx';
import { durationText, intervalText, jobSchedulesText as text } from './job-schedules.strings.ts';

const time = (t: number) => dayjs(t).format('YYYY-MM-DD HH:mm:ss');

function statusTag(row: JobScheduleRow) {
  if (row.running) return <Tag color="processing">{text.running}</Tag>;
  return row.enabled ? <Tag color="success">{text.on}</Tag> : <Tag>{text.off}</Tag>;
}

/** /home/setting/jobs (admins): each schedule's last and next run, how long it took, its last error; 立即运行, 启用. */
export function JobSchedulesPage() {
  const queryClient = useQueryClient();
  const isMobile = useIsMobile();
  const list = useQuery({
    queryKey: queryKeys.jobSchedules,
    queryFn: ({ signal }) => fetchJobSchedules(signal),
    // While a run goes on, follow it to its end (上次运行, 耗时, 上次错误 change then).
    refetchInterval: (query) => (query.state.data?.some((r) => r.running) ? 1000 : false),
  });
  const show = (rows: JobScheduleRow[]) => queryClient.setQueryData(queryKeys.jobSchedules, rows);
  const runNow = useMutation({
    mutationFn: (row: JobScheduleRow) => runJobScheduleNow(row.name),
    onSuccess: (rows, row) => {
      show(rows);
      toast.success(text.started(row.title));
    },
    // Refused (it is running): the list shows why the button is off.
    onError: () => void list.refetch(),
  });
  const toggle = useMutation({
    mutationFn: (change: { row: JobScheduleRow; enabled: boolean }) =>
      setJobScheduleEnabled({ name: change.row.name, enabled: change.enabled }),
    onSuccess: (rows, change) => {
      show(rows);
      toast.success(change.enabled ? text.turnedOn(change.row.title) : text.turnedOff(change.row.title));
    },
  });

  if (list.isError && !list.data) {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="jobs-error"
        title={text.loadFailed}
        description={list.error.message}
        action={
          <Button size="small" onClick={() => void list.refetch()}>
            {text.retry}
          </Button>
        }
      />
    );
  }

  const rows = list.data ?? [];
  return (
    <div data-testid="jobs-page">
      <Flex gap={8} wrap align="center" justify="space-between" style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">{text.intro}</Typography.Text>
        <Button
          icon={<ReloadOutlined />}
          loading={list.isFetching}
          onClick={() => void list.refetch()}
          data-testid="jobs-refresh"
        >
          {text.refresh}
        </Button>
      </Flex>
      {list.isLoading ? <Card size="small" loading /> : null}
      {!list.isLoading && rows.length === 0 ? <FeatureEmpty title={text.empty} content={text.emptyContent} /> : null}
      <Flex vertical gap={12}>
        {rows.map((row) => {
          const starting = runNow.isPending && runNow.variables?.name === row.name;
          const switching = toggle.isPending && toggle.variables?.row.name === row.name;
          return (
            <Card
              key={row.name}
              size="small"
              data-testid={`job-${row.name}`}
              title={
                <Flex gap={8} align="center" wrap>
                  <span>{row.title}</span>
                  {statusTag(row)}
                </Flex>
              }
              extra={
                <Button
                  type="primary"
                  size="small"
                  icon={<PlayCircleOutlined />}
                  // Off while the request is out and while the run goes on: one click, one run.
                  disabled={row.running}
                  loading={starting}
                  onClick={() => runNow.mutate(row)}
                  data-testid={`job-run-${row.name}`}
                >
                  {text.runNow}
                </Button>
              }
            >
              <Descriptions size="small" column={isMobile ? 1 : 3}>
                <Descriptions.Item label={text.interval}>{text.every(intervalText(row.intervalMs))}</Descriptions.Item>
                <Descriptions.Item label={text.lastRun}>
                  <span data-testid={`job-last-run-${row.name}`}>
                    {row.lastRunAt === null ? text.never : time(row.lastRunAt)}
                  </span>
                </Descriptions.Item>
                <Descriptions.Item label={text.nextRun}>
                  <span data-testid={`job-next-run-${row.name}`}>
                    {row.enabled ? time(row.nextRunAt) : text.offNext}
                  </span>
                </Descriptions.Item>
                <Descriptions.Item label={text.duration}>
                  <span data-testid={`job-duration-${row.name}`}>
                    {row.lastDurationMs === null ? '-' : durationText(row.lastDurationMs)}
                  </span>
                </Descriptions.Item>
                <Descriptions.Item label={text.enabled}>
                  <Switch
                    size="small"
                    checked={row.enabled}
                    loading={switching}
                    onChange={(enabled) => toggle.mutate({ row, enabled })}
                    data-testid={`job-enabled-${row.name}`}
                  />
                </Descriptions.Item>
                <Descriptions.Item label={text.lastError}>
                  {row.lastError ? (
                    <Typography.Text
                      type="danger"
                      style={{ wordBreak: 'break-all' }}
                      data-testid={`job-last-error-${row.name}`}
                    >
                      {row.lastError}
                    </Typography.Text>
                  ) : (
                    <span data-testid={`job-last-error-${row.name}`}>{text.none}</span>
                  )}
                </Descriptions.Item>
              </Descriptions>
            </Card>
          );
        })}
      </Flex>
      <JobQueueCard />
    </div>
  );
}
