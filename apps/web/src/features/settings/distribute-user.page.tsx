import { useState } from 'react';
import { Alert, Button, Flex, Input, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_TABLE_PAGE_SIZE, isAdminLevel, type AppPermit, type UserRow } from '@release/contract';
import { fetchAppList } from '../../api/apps.api.ts';
import { fetchUserApps } from '../../api/distribute-users.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchUsers } from '../../api/users.api.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { tablePagination } from '../../app/components/table-pagination.ts';
import { useEditing } from '../../app/components/use-editing.ts';
import { zh } from '../../locales/zh-CN.ts';
import { defaultAppFilter } from '../apps/app-filter.context.tsx';
import { DistributeUserModal } from './distribute-user.modal.tsx';

const t = zh.distributeUser;

/** The apps one user holds with one permit, as tags; loaded per row (the cache shares it with the modal). */
function PermitTags({ user, permit }: { user: UserRow; permit: AppPermit }) {
  const apps = useQuery({
    queryKey: queryKeys.userAppsOf(user.userId),
    queryFn: ({ signal }) => fetchUserApps(user.userId, signal),
  });
  if (isAdminLevel(user.roleLevel))
    return permit === 'edit' ? <Typography.Text type="secondary">{t.adminAll}</Typography.Text> : null;
  const picked = (apps.data ?? []).filter((a) => a.permit === permit);
  if (apps.isLoading) return null;
  if (!picked.length) return <Typography.Text type="secondary">{t.none}</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap data-testid={`distribute-${permit}-apps`}>
      {picked.map((a) => (
        <Tag key={a.appId} color={permit === 'edit' ? 'blue' : 'green'} style={{ marginInlineEnd: 0 }}>
          {a.appName}
        </Tag>
      ))}
    </Space>
  );
}

/** /home/setting/distribute-user (SPEC §1, §6): which apps each user may edit or only download. */
export function DistributeUserPage() {
  const queryClient = useQueryClient();
  const [params, setParams] = useState({ pageNo: 1, pageSize: DEFAULT_TABLE_PAGE_SIZE, keyword: '' });
  const editing = useEditing<UserRow>();
  const users = useQuery({
    queryKey: queryKeys.userList(params),
    queryFn: ({ signal }) => fetchUsers(params, signal),
    placeholderData: keepPreviousData,
  });
  const apps = useQuery({
    queryKey: queryKeys.appList(defaultAppFilter),
    queryFn: ({ signal }) => fetchAppList(defaultAppFilter, signal),
  });

  const columns: TableColumnsType<UserRow> = [
    { title: t.username, dataIndex: 'username', width: 120 },
    { title: t.role, key: 'role', width: 110, render: (_, row) => `${row.roleName}（${row.roleLevel}）` },
    { title: t.editApps, key: 'edit', render: (_, row) => <PermitTags user={row} permit="edit" /> },
    { title: t.viewApps, key: 'view', render: (_, row) => <PermitTags user={row} permit="view" /> },
    {
      title: zh.common.operation,
      key: 'operation',
      width: 110,
      render: (_, row) =>
        isAdminLevel(row.roleLevel) ? null : (
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            data-testid="distribute-edit"
            onClick={() => editing.openEdit(row)}
          >
            {t.editPermits}
          </Button>
        ),
    },
  ];

  const noApps = apps.isSuccess && apps.data.apps.length === 0;
  return (
    <Flex vertical gap={16}>
      <Alert type="info" showIcon message={t.intro} data-testid="distribute-intro" />
      {noApps ? (
        <FeatureEmpty title={t.noAppsTitle} content={t.noAppsContent} />
      ) : (
        <>
          <Input.Search
            allowClear
            data-testid="distribute-search"
            placeholder={t.searchPlaceholder}
            style={{ maxWidth: 280 }}
            onSearch={(keyword) => setParams((p) => ({ ...p, keyword: keyword.trim(), pageNo: 1 }))}
          />
          <Table<UserRow>
            data-testid="distribute-table"
            rowKey="userId"
            size="middle"
            columns={columns}
            dataSource={users.data?.rows ?? []}
            loading={users.isFetching}
            locale={{ emptyText: t.noUsers }}
            pagination={tablePagination({
              total: users.data?.total ?? 0,
              pageNo: params.pageNo,
              pageSize: params.pageSize,
              onChange: (pageNo, pageSize) =>
                setParams((p) => ({ ...p, pageNo: pageSize === p.pageSize ? pageNo : 1, pageSize })),
            })}
          />
        </>
      )}
      <DistributeUserModal
        open={editing.open}
        user={editing.record}
        apps={apps.data?.apps ?? []}
        onClose={editing.close}
        onSaved={() => {
          editing.close();
          void queryClient.invalidateQueries({ queryKey: queryKeys.userApps });
          void queryClient.invalidateQueries({ queryKey: queryKeys.appDetails });
        }}
      />
    </Flex>
  );
}
