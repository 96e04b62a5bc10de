import { useState } from 'react';
import { Badge, Card, Flex, Table, Tabs } from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BADGE_OVERFLOW,
  DEFAULT_TABLE_PAGE_SIZE,
  LarkTaskMessages,
  recordTypes,
  type AppDetail,
  type RecordType,
  type TaskViewSetting,
} from '@release/contract';
import { fetchTasks, refreshFromLark, type TaskListParams } from '../../api/tasks.api.ts';
import { toast } from '../../app/feedback.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { tablePagination } from '../../app/components/table-pagination.ts';
import { taskColumns } from './task-columns.tsx';
import { TaskDrawer, type DrawerState } from './task-drawer.tsx';
import { TaskToolbar } from './task-toolbar.tsx';
import { useTaskOptions } from './use-task-options.ts';
import { tasksText as t } from './tasks.strings.ts';
import './tasks.css';

/** SPEC §2 task view: 任务清单 (task) and 多维表格 (bug) tabs with counts, the table and the create/edit drawer. */
export function TaskView({ app, setting }: { app: AppDetail; setting: TaskViewSetting | null }) {
  const queryClient = useQueryClient();
  const canEdit = app.permit !== 'view';
  const [params, setParams] = useState<TaskListParams>({
    appId: app.appId,
    recordType: 'task',
    pageNo: 1,
    pageSize: DEFAULT_TABLE_PAGE_SIZE,
  });
  const [drawer, setDrawer] = useState<DrawerState | null>(null);
  const options = useTaskOptions(app.appId);
  const tasks = useQuery({
    queryKey: queryKeys.taskList(params),
    queryFn: ({ signal }) => fetchTasks(params, signal),
    placeholderData: keepPreviousData,
  });
  const counts = tasks.data?.extraInfo ?? { taskCount: 0, bugCount: 0 };
  // A record's history grows with each sync (and tells a failed one), so a drawer opened after a refresh reads it again.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.tasks(app.appId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.taskFields(app.appId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.taskHistories }),
    ]);
  // A linked app asks Lark first (both ways), then reads the list again; a refusal was toasted by the client.
  const isLinked = Boolean(setting?.larkEnabled && (setting.larkTaskListUrl || setting.larkTableUrl));
  const [syncing, setSyncing] = useState(false);
  const refreshAll = async () => {
    if (isLinked) {
      setSyncing(true);
      try {
        const synced = await refreshFromLark(app.appId);
        // Records that could not sync (an attachment lost here …) are counted; each one's history says why.
        if (synced.failed) toast.warning(LarkTaskMessages.recordsFailed(synced.failed));
        else toast.success(t.refreshed);
      } catch {
        // The API client has shown Lark's reason; the local list is still read again below.
      } finally {
        setSyncing(false);
      }
    }
    await refresh();
  };

  const countOf: Record<RecordType, number> = { task: counts.taskCount, bug: counts.bugCount };
  const tabItems = recordTypes.map((type) => ({
    key: type,
    label: (
      <Flex align="center" gap={6} data-testid={`task-tab-${type}`}>
        {t.tabs[type]}
        <Badge
          count={countOf[type]}
          overflowCount={BADGE_OVERFLOW}
          showZero
          color={type === 'bug' ? '#ff4d4f' : '#1677ff'}
          data-testid={`task-badge-${type}`}
        />
      </Flex>
    ),
  }));

  return (
    <Card data-testid="task-view" styles={{ body: { paddingTop: 8 } }}>
      <Tabs
        activeKey={params.recordType}
        onChange={(key) => setParams((p) => ({ ...p, recordType: key as RecordType, pageNo: 1 }))}
        items={tabItems}
      />
      <TaskToolbar
        appId={app.appId}
        setting={setting}
        canEdit={canEdit}
        isRefreshing={tasks.isFetching || syncing}
        onCreate={() => setDrawer({ mode: 'create', recordType: params.recordType })}
        onRefresh={() => void refreshAll()}
      />
      <Table
        data-testid="task-table"
        rowKey="guid"
        size="middle"
        columns={taskColumns(params.recordType, options, (record) => setDrawer({ mode: 'edit', record }), canEdit)}
        dataSource={tasks.data?.rows ?? []}
        loading={tasks.isFetching}
        scroll={{ x: params.recordType === 'task' ? 1100 : 1400 }}
        pagination={tablePagination({
          total: tasks.data?.total ?? 0,
          pageNo: params.pageNo,
          pageSize: params.pageSize,
          onChange: (pageNo, pageSize) =>
            setParams((p) => ({ ...p, pageNo: pageSize === p.pageSize ? pageNo : 1, pageSize })),
        })}
        locale={{
          emptyText: (
            <FeatureEmpty
              title={t.empty[params.recordType]}
              content={canEdit ? t.emptyContent.editor : t.emptyContent.viewer}
            />
          ),
        }}
      />
      <TaskDrawer
        appId={app.appId}
        state={drawer}
        canEdit={canEdit}
        options={options}
        onClose={() => setDrawer(null)}
        onChanged={() => void refresh()}
      />
    </Card>
  );
}
