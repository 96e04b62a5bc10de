import { useState } from 'react';
import { Button, Flex, Popconfirm, Space, Table, Tag, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { ROLE_LIST_PAGE, type RoleRow } from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { deleteRole, fetchRoles } from '../../api/roles.api.ts';
import { tablePagination } from '../../app/components/table-pagination.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { RoleEditModal } from './role-edit.modal.tsx';

/** /home/setting/role-manage: roles paged by 10; the builtin admin role cannot be deleted. */
export function RoleManagePage() {
  const queryClient = useQueryClient();
  const [pageNo, setPageNo] = useState<number>(ROLE_LIST_PAGE.pageNo);
  const [editing, setEditing] = useState<{ open: boolean; role: RoleRow | null }>({ open: false, role: null });
  const roles = useQuery({
    queryKey: queryKeys.roleList(pageNo, ROLE_LIST_PAGE.pageSize),
    queryFn: ({ signal }) => fetchRoles(pageNo, ROLE_LIST_PAGE.pageSize, signal),
    placeholderData: keepPreviousData,
  });

  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: queryKeys.roles });
  const remove = async (role: RoleRow): Promise<void> => {
    try {
      await deleteRole(role.roleId);
      toast.success(zh.common.deleteSuccess);
      await refresh();
    } catch {
      // Shown by the API client.
    }
  };

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
    {
      title: zh.common.operation,
      key: 'operation',
      width: 140,
      fixed: 'right',
      render: (_, row) =>
        row.builtin ? null : (
          <Space size={4}>
            <Button type="link" size="small" data-testid="role-edit" onClick={() => setEditing({ open: true, role: row })}>
              {zh.common.edit}
            </Button>
            <Popconfirm title={zh.roleManage.deleteConfirm} onConfirm={() => remove(row)}>
              <Button type="link" size="small" danger data-testid="role-delete">
                {zh.common.delete}
              </Button>
            </Popconfirm>
          </Space>
        ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <Flex justify="flex-end">
        <Button type="primary" icon={<PlusOutlined />} data-testid="role-add" onClick={() => setEditing({ open: true, role: null })}>
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
        role={editing.role}
        onClose={() => setEditing({ open: false, role: null })}
        onSaved={() => {
          setEditing({ open: false, role: null });
          void refresh();
        }}
      />
    </Flex>
  );
}
