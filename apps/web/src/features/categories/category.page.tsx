import { Button, Card, Table, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { UNCATEGORISED_ID, type CategoryRow } from '@release/contract';
import { deleteCategory, fetchCategories } from '../../api/categories.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { operationColumn, RowActions } from '../../app/components/row-actions.tsx';
import { useEditing } from '../../app/components/use-editing.ts';
import { zh } from '../../locales/zh-CN.ts';
import { CategoryEditModal } from './category-edit.modal.tsx';

/** /home/category (admins): categories other than 未分类, which only the sider filter shows. */
export function CategoryPage() {
  const queryClient = useQueryClient();
  const editing = useEditing<CategoryRow>();
  const categories = useQuery({ queryKey: queryKeys.categories, queryFn: ({ signal }) => fetchCategories(signal) });
  const rows = (categories.data ?? []).filter((c) => c.id !== UNCATEGORISED_ID);

  // Apps change category when one is renamed or deleted, so the app list and details refresh too.
  const refresh = async (): Promise<void> => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.categories }),
      queryClient.invalidateQueries({ queryKey: queryKeys.apps }),
      queryClient.invalidateQueries({ queryKey: queryKeys.appDetails }),
    ]);
  };
  const columns: TableColumnsType<CategoryRow> = [
    { title: zh.categoryPage.name, dataIndex: 'categoryName', width: 220 },
    { title: zh.categoryPage.appCount, dataIndex: 'appCount', width: 120 },
    operationColumn<CategoryRow>(150, (row) => (
      <RowActions
        testIdPrefix="category"
        editTestId="category-rename"
        editLabel={zh.categoryPage.rename}
        onEdit={() => editing.openEdit(row)}
        confirmTitle={zh.categoryPage.deleteConfirm}
        confirmDescription={zh.categoryPage.deleteHint}
        onDelete={() => deleteCategory(row.id)}
        onDeleted={refresh}
      />
    )),
  ];

  return (
    <Card
      title={zh.categoryPage.title}
      data-testid="category-page"
      extra={
        <Button type="primary" icon={<PlusOutlined />} data-testid="category-add" onClick={editing.openCreate}>
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
        category={editing.record}
        onClose={editing.close}
        onSaved={() => {
          editing.close();
          void refresh();
        }}
      />
    </Card>
  );
}
