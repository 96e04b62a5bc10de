import { useState } from 'react';
import { Button, Flex, Input, Table, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { DEFAULT_TABLE_PAGE_SIZE, type UserRow } from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { deleteUser, fetchUsers } from '../../api/users.api.ts';
import { operationColumn, RowActions } from '../../app/components/row-actions.tsx';
import { tablePagination } from '../../app/components/table-pagination.ts';
import { useEditing } from '../../app/components/use-editing.ts';
import { zh } from '../../locales/zh-CN.ts';
import { LoginSettingCard } from './login-setting.card.tsx';
import { UserEditModal } from './user-edit.modal.tsx';

/** /home/setting/user-manage: users table with search, create/edit modal and delete. */
export function UserManagePage() {
  const queryClient = useQueryClient();
  const [params, setParams] = useState({ pageNo: 1, pageSize: DEFAULT_TABLE_PAGE_SIZE, keyword: '' });
  const editing = useEditing<UserRow>();
  const users = useQuery({
    queryKey: queryKeys.userList(params),
    queryFn: ({ signal }) => fetchUsers(params, signal),
    placeholderData: keepPreviousData,
  });

  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: queryKeys.users });
  const columns: TableColumnsType<UserRow> = [
    { title: zh.userManage.username, dataIndex: 'username', width: 160 },
    { title: zh.userManage.role, key: 'role', width: 160, render: (_, row) => `${row.roleName}（${row.roleLevel}）` },
    { title: zh.userManage.phone, dataIndex: 'phone', width: 150, render: (phone: string | null) => phone ?? '-' },
    {
      title: zh.userManage.createTime,
      dataIndex: 'createTime',
      width: 170,
      render: (time: number) => dayjs(time).format('YYYY-MM-DD HH:mm'),
    },
    operationColumn<UserRow>(140, (row) => (
      <RowActions
        testIdPrefix="user"
        onEdit={() => editing.openEdit(row)}
        confirmTitle={zh.userManage.deleteConfirm}
        onDelete={() => deleteUser(row.userId)}
        onDeleted={refresh}
      />
    )),
  ];

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" gap={8} wrap>
        <Input.Search
          allowClear
          data-testid="user-search"
          placeholder={zh.userManage.searchPlaceholder}
          style={{ maxWidth: 280 }}
          onSearch={(keyword) => setParams((p) => ({ ...p, keyword: keyword.trim(), pageNo: 1 }))}
        />
        <Button type="primary" icon={<PlusOutlined />} data-testid="user-add" onClick={editing.openCreate}>
          {zh.userManage.add}
        </Button>
      </Flex>
      <Table<UserRow>
        data-testid="user-table"
        rowKey="userId"
        size="middle"
        columns={columns}
        dataSource={users.data?.rows ?? []}
        loading={users.isFetching}
        scroll={{ x: 780 }}
        pagination={tablePagination({
          total: users.data?.total ?? 0,
          pageNo: params.pageNo,
          pageSize: params.pageSize,
          onChange: (pageNo, pageSize) =>
            setParams((p) => ({ ...p, pageNo: pageSize === p.pageSize ? pageNo : 1, pageSize })),
        })}
      />
      <LoginSettingCard />
      <UserEditModal
        open={editing.open}
        user={editing.record}
        onClose={editing.close}
        onSaved={() => {
          editing.close();
          void refresh();
        }}
      />
    </Flex>
  );
}
