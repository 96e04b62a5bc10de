import type { ReactNode } from 'react';
import { Button, Popconfirm, Space, type TableColumnType } from 'antd';
import { zh } from '../../locales/zh-CN.ts';
import { toast } from '../feedback.ts';

interface RowActionsProps {
  onEdit: () => void;
  /** Default 编辑. */
  editLabel?: string;
  /** data-testid prefix: `<prefix>-edit`, `<prefix>-delete` (or editTestId to override the first). */
  testIdPrefix: string;
  editTestId?: string;
  confirmTitle: string;
  confirmDescription?: string;
  onDelete: () => Promise<unknown>;
  /** After 删除成功, e.g. refetch the table. */
  onDeleted: () => unknown;
}

/** A table row's 编辑 link and 删除 link behind a Popconfirm; failures are toasted by the API client. */
export function RowActions({ onEdit, editLabel = zh.common.edit, testIdPrefix, editTestId, confirmTitle, confirmDescription, onDelete, onDeleted }: RowActionsProps) {
  const remove = async (): Promise<void> => {
    try {
      await onDelete();
    } catch {
      return; // Shown by the API client.
    }
    toast.success(zh.common.deleteSuccess);
    await onDeleted();
  };
  return (
    <Space size={4}>
      <Button type="link" size="small" data-testid={editTestId ?? `${testIdPrefix}-edit`} onClick={onEdit}>
        {editLabel}
      </Button>
      <Popconfirm title={confirmTitle} description={confirmDescription} onConfirm={remove}>
        <Button type="link" size="small" danger data-testid={`${testIdPrefix}-delete`}>
          {zh.common.delete}
        </Button>
      </Popconfirm>
    </Space>
  );
}

/** The right-hand 操作 column of the manage tables. */
export function operationColumn<T>(width: number, render: (row: T) => ReactNode): TableColumnType<T> {
  return { title: zh.common.operation, key: 'operation', width, fixed: 'right', render: (_: unknown, row: T) => render(row) };
}
