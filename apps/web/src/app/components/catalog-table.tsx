import type { ReactNode } from 'react';
import { Button, Flex, Table, Typography, type TableColumnsType } from 'antd';
import { FeatureEmpty } from './feature-empty.tsx';

interface CatalogTableProps<T> {
  /** data-testid of the page and of its table. */
  testIds: { page: string; table: string };
  intro: string;
  /** The page's one primary button, right of the intro. */
  action: { icon: ReactNode; testId: string; label: string; onClick: () => void };
  /** The rows as the query holds them. */
  rows: { data?: T[]; isFetching: boolean };
  columns: TableColumnsType<T>;
  scrollX: number;
  /** What a row shows when expanded. */
  details: (row: T) => ReactNode;
  empty: { title: string; content: string };
  /** The page's modals. */
  children?: ReactNode;
}

/** A settings page of a few records (Apple accounts, certificates): intro and one button, then every row, each expandable. */
export function CatalogTable<T extends { id: number }>({
  testIds,
  intro,
  action,
  rows,
  columns,
  scrollX,
  details,
  empty,
  children,
}: CatalogTableProps<T>) {
  return (
    <Flex vertical gap={16} data-testid={testIds.page}>
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Typography.Text type="secondary">{intro}</Typography.Text>
        <Button type="primary" icon={action.icon} data-testid={action.testId} onClick={action.onClick}>
          {action.label}
        </Button>
      </Flex>
      <Table<T>
        data-testid={testIds.table}
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows.data ?? []}
        loading={rows.isFetching}
        scroll={{ x: scrollX }}
        pagination={false}
        expandable={{ expandedRowRender: details }}
        locale={{ emptyText: <FeatureEmpty title={empty.title} content={empty.content} /> }}
      />
      {children}
    </Flex>
  );
}
