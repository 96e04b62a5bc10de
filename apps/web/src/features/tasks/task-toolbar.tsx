import { useState } from 'react';
import { Button, Flex } from 'antd';
import { ExportOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { TaskViewSetting } from '@release/contract';
import { createLarkBitable, createLarkTaskList } from '../../api/tasks.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { toast } from '../../app/feedback.ts';
import { tasksText as t } from './tasks.strings.ts';

interface TaskToolbarProps {
  appId: number;
  setting: TaskViewSetting | null;
  canEdit: boolean;
  isRefreshing: boolean;
  onCreate: () => void;
  onRefresh: () => void;
}

/** 创建任务, 刷新任务列表, and, with a Lark app, the Lark links: 前往/创建多维表格, 前往/创建任务清单. */
export function TaskToolbar({ appId, setting, canEdit, isRefreshing, onCreate, onRefresh }: TaskToolbarProps) {
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState<'table' | 'taskList' | null>(null);
  const larkEnabled = setting?.larkEnabled ?? false;

  const createLink = async (kind: 'table' | 'taskList') => {
    setCreating(kind);
    try {
      await (kind === 'table' ? createLarkBitable(appId) : createLarkTaskList(appId));
      toast.success(t.lark.created);
      await queryClient.invalidateQueries({ queryKey: queryKeys.taskView(appId) });
    } catch {
      // The API client has shown the reason.
    } finally {
      setCreating(null);
    }
  };

  const larkButton = (kind: 'table' | 'taskList') => {
    const url = kind === 'table' ? setting?.larkTableUrl : setting?.larkTaskListUrl;
    const label = url
      ? kind === 'table'
        ? t.lark.openTable
        : t.lark.openTaskList
      : kind === 'table'
        ? t.lark.createTable
        : t.lark.createTaskList;
    const testId = kind === 'table' ? 'task-lark-table' : 'task-lark-task-list';
    if (url) {
      return (
        <Button icon={<ExportOutlined />} href={url} target="_blank" rel="noopener noreferrer" data-testid={testId}>
          {label}
        </Button>
      );
    }
    return (
      <Button
        disabled={!canEdit}
        loading={creating === kind}
        onClick={() => void createLink(kind)}
        data-testid={testId}
      >
        {label}
      </Button>
    );
  };

  return (
    <Flex gap={8} wrap justify="space-between" className="task-toolbar">
      <Flex gap={8} wrap>
        {canEdit ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={onCreate} data-testid="task-create">
            {t.createTask}
          </Button>
        ) : null}
        <Button icon={<ReloadOutlined />} loading={isRefreshing} onClick={onRefresh} data-testid="task-refresh">
          {t.refresh}
        </Button>
      </Flex>
      {larkEnabled ? (
        <Flex gap={8} wrap>
          {larkButton('table')}
          {larkButton('taskList')}
        </Flex>
      ) : null}
    </Flex>
  );
}
