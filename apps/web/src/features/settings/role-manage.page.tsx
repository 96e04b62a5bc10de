import { useState } from 'react';
import { Button, Flex, Space, Table, Tag, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { ROLE_LIST_PAGE, type RoleRow } from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { deleteRole, fetchRoles } from '../../api/roles.api.ts';
import { operationColumn, RowActions } from '../../app/components/row-actions.tsx';
import { tablePagination } from '../../app/components/table-pagination.ts';
import { useEditing } from '../../app/components/use-editing.ts';
import { zh } from '../../locales/zh-CN.ts';
import { RoleEditModal } from './role-edit.modal.tsx';

/** /home/setting/role-manage: roles paged by 10; the builtin admin role cannot be deleted. */
export function RoleManagePage() {
  const queryClient = useQueryClient();
  const [pageNo, setPageNo] = useState<number>(ROLE_LIST_PAGE.pageNo);
  const editing = useEditing<RoleRow>();
  const roles = useQuery({
    queryKey: queryKeys.roleList(pageNo, ROLE_LIST_PAGE.pageSize),
    queryFn: ({ signal }) => fetchRoles(pageNo, ROLE_LIST_PAGE.pageSize, signal),
    placeholderData: keepPreviousData,
  });

  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: queryKeys.roles });
  const columns: TableColumnsType<RoleRow> = [
    {
      title: zh.roleManage.roleName,
      dataIndex: 'roleName',
      width: 180,
      render: (name: string, row) => (
        <Space size={6}>
          {name}
          {row.builtin ? <Tag>{zh.roleManage.builtin}</Tag> : null}
        </Space>
      ),
    },
    { title: zh.roleManage.roleLevel, dataIndex: 'roleLevel', width: 110 },
    { title: zh.roleManage.userCount, dataIndex: 'userCount', width: 100 },
    operationColumn<RoleRow>(140, (row) =>
      row.builtin ? null : (
        <RowActions
          testIdPrefix="role"
          onEdit={() => editing.openEdit(row)}
          confirmTitle={zh.roleManage.deleteConfirm}
          onDelete={() => deleteRole(row.roleId)}
          onDeleted={refresh}
        />
      ),
    ),
  ];

  return (
    <Flex vertical gap={16}>
      <Flex justify="flex-end">
        <Button type="primary" icon={<PlusOutlined />} data-testid="role-add" onClick={editing.openCreate}>
          {zh.roleManage.add}
        </Button>
      </Flex>
      <Table<RoleRow>
        data-testid="role-table"
        rowKey="roleId"
        size="middle"
        columns={columns}
        dataSource={roles.data?.rows ?? []}
        loading={roles.isFetching}
        scroll={{ x: 560 }}
        pagination={tablePagination({
          total: roles.data?.total ?? 0,
          pageNo,
          pageSize: ROLE_LIST_PAGE.pageSize,
          sizes: [ROLE_LIST_PAGE.pageSize],
          onChange: setPageNo,
        })}
      />
      <RoleEditModal
        open={editing.open}
        role={editing.record}
        onClose={editing.close}
        onSaved={() => {
          editing.close();
          void refresh();
        }}
      />
    </Flex>
  );
}
