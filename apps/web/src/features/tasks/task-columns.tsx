import { Button, Tag, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import type { RecordType, TaskRecord } from '@release/contract';
import type { TaskOptions } from './use-task-options.ts';
import { tasksText as t } from './tasks.strings.ts';

const statusColors: Record<string, string> = {
  not_started: 'default',
  in_progress: 'processing',
  completed: 'success',
  stopped: 'warning',
  new: 'blue',
  fixing: 'processing',
  fixed: 'cyan',
  closed: 'success',
  regression_failed: 'error',
  reopened: 'magenta',
  suspended: 'warning',
};
const levelColors: Record<string, string> = {
  urgent: 'red',
  fatal: 'red',
  high: 'volcano',
  middle: 'gold',
  medium: 'gold',
  low: 'green',
};

const timeText = (time: number | null) => (time === null ? '-' : dayjs(time).format('YYYY-MM-DD HH:mm'));

/** Columns of the task list (task) and the multi-dimensional table (bug); the title opens the drawer. */
export function taskColumns(
  recordType: RecordType,
  options: TaskOptions,
  onOpen: (record: TaskRecord) => void,
  canEdit: boolean,
): TableColumnsType<TaskRecord> {
  const tag = (group: Parameters<TaskOptions['labelOf']>[0], value: string | null, colors: Record<string, string>) =>
    value ? <Tag color={colors[value] ?? 'default'}>{options.labelOf(group, value)}</Tag> : '-';
  const title = {
    title: t.fields.summary,
    dataIndex: 'summary',
    width: 260,
    render: (summary: string, record: TaskRecord) => (
      <Typography.Link
        data-testid="task-row-title"
        onClick={() => onOpen(record)}
        ellipsis
        style={{ maxWidth: 240, display: 'inline-block' }}
      >
        {summary}
      </Typography.Link>
    ),
  };
  const people = {
    title: t.fields.assignee[recordType],
    dataIndex: 'assignees',
    width: 140,
    render: (list: TaskRecord['assignees']) => list.map((u) => u.name).join('、') || '-',
  };
  const specific: TableColumnsType<TaskRecord> =
    recordType === 'task'
      ? [
          {
            title: t.fields.status,
            dataIndex: 'status',
            width: 100,
            render: (value: string | null) => tag('status', value, statusColors),
          },
          {
            title: t.fields.priority,
            dataIndex: 'priority',
            width: 80,
            render: (value: string | null) => tag('priority', value, levelColors),
          },
        ]
      : [
          {
            title: t.fields.bugStatus,
            dataIndex: 'bugStatus',
            width: 100,
            render: (value: string | null) => tag('bugStatus', value, statusColors),
          },
          {
            title: t.fields.bugSeverity,
            dataIndex: 'bugSeverity',
            width: 90,
            render: (value: string | null) => tag('bugSeverity', value, levelColors),
          },
          {
            title: t.fields.bugPriority,
            dataIndex: 'bugPriority',
            width: 80,
            render: (value: string | null) => tag('bugPriority', value, levelColors),
          },
          {
            title: t.fields.bugType,
            dataIndex: 'bugType',
            width: 110,
            render: (value: string | null) => options.labelOf('bugType', value),
          },
          {
            title: t.fields.moduleName,
            dataIndex: 'moduleName',
            width: 100,
            render: (value: string | null) => value || '-',
          },
        ];
  return [
    title,
    people,
    ...specific,
    { title: t.fields.start, dataIndex: 'startAt', width: 140, render: timeText },
    { title: t.fields.due, dataIndex: 'due', width: 140, render: timeText },
    { title: t.fields.comments, dataIndex: 'commentCount', width: 70 },
    { title: t.fields.creator, dataIndex: 'creatorName', width: 100, render: (name: string | null) => name ?? '-' },
    {
      title: t.operation,
      key: 'operation',
      fixed: 'right',
      width: 70,
      render: (_: unknown, record: TaskRecord) => (
        <Button
          type="link"
          size="small"
          data-testid="task-row-edit"
          onClick={() => onOpen(record)}
          style={{ padding: 0 }}
        >
          {canEdit ? t.edit : t.view}
        </Button>
      ),
    },
  ];
}
