import { useState } from 'react';
import { Button, Card, Popconfirm, Space, Table, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { UNCATEGORISED_ID, type CategoryRow } from '@release/contract';
import { deleteCategory, fetchCategories } from '../../api/categories.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { CategoryEditModal } from './category-edit.modal.tsx';

/** /home/category (admins): categories other than 未分类, which only the sider filter shows. */
export function CategoryPage() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ open: boolean; category: CategoryRow | null }>({ open: false, category: null });
  const categories = useQuery({ queryKey: queryKeys.categories, queryFn: ({ signal }) => fetchCategories(signal) });
  const rows = (categories.data ?? []).filter((c) => c.id !== UNCATEGORISED_ID);

  // Apps change category when one is deleted, so the app list refreshes too.
  const refresh = async (): Promise<void> => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.categories }),
      queryClient.invalidateQueries({ queryKey: queryKeys.apps }),
    ]);
  };
  const remove = async (category: CategoryRow): Promise<void> => {
    try {
      await deleteCategory(category.id);
      toast.success(zh.common.deleteSuccess);
      await refresh();
    } catch {
      // Shown by the API client.
    }
  };

  const columns: TableColumnsType<CategoryRow> = [
    { title: zh.categoryPage.name, dataIndex: 'categoryName', width: 220 },
    { title: zh.categoryPage.appCount, dataIndex: 'appCount', width: 120 },
    {
      title: zh.common.operation,
      key: 'operation',
      width: 150,
      fixed: 'right',
      render: (_, row) => (
        <Space size={4}>
          <Button type="link" size="small" data-testid="category-rename" onClick={() => setEditing({ open: true, category: row })}>
            {zh.categoryPage.rename}
          </Button>
          <Popconfirm title={zh.categoryPage.deleteConfirm} description={zh.categoryPage.deleteHint} onConfirm={() => remove(row)}>
            <Button type="link" size="small" danger data-testid="category-delete">
              {zh.common.delete}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={zh.categoryPage.title}
      data-testid="category-page"
      extra={
        <Button type="primary" icon={<PlusOutlined />} data-testid="category-add" onClick={() => setEditing({ open: true, category: null })}>
          {zh.categoryPage.add}
        </Button>
      }
    >
      <Table<CategoryRow>
        data-testid="category-table"
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={categories.isFetching}
        scroll={{ x: 480 }}
        pagination={false}
        locale={{ emptyText: <FeatureEmpty title={zh.categoryPage.empty} content={zh.categoryPage.emptyContent} /> }}
      />
      <CategoryEditModal
        open={editing.open}
        category={editing.category}
        onClose={() => setEditing({ open: false, category: null })}
        onSaved={() => {
          setEditing({ open: false, category: null });
          void refresh();
        }}
      />
    </Card>
  );
}
