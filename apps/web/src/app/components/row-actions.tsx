import type { ReactNode } from 'react';
import { Button, Popconfirm, Space, type TableColumnType } from 'antd';
import { zh } from '../../locales/zh-CN.ts';
import { toast } from '../feedback.ts';

interface RowActionsProps {
  /** Without it, only the delete link is shown. */
  onEdit?: () => void;
  /** Default 编辑. */
  editLabel?: string;
  /** data-testid prefix: `<prefix>-edit`, `<prefix>-delete` (or editTestId / deleteTestId to override them). */
  testIdPrefix: string;
  editTestId?: string;
  deleteTestId?: string;
  /** Default 删除, e.g. 吊销. */
  deleteLabel?: string;
  /** Default 删除成功. */
  deletedText?: string;
  confirmTitle: string;
  confirmDescription?: string;
  onDelete: () => Promise<unknown>;
  /** After 删除成功, e.g. refetch the table. */
  onDeleted: () => unknown;
}

/** A table row's 编辑 link and 删除 link behind a Popconfirm; failures are toasted by the API client. */
export function RowActions({
  onEdit,
  editLabel = zh.common.edit,
  testIdPrefix,
  editTestId,
  deleteTestId,
  deleteLabel = zh.common.delete,
  deletedText = zh.common.deleteSuccess,
  confirmTitle,
  confirmDescription,
  onDelete,
  onDeleted,
}: RowActionsProps) {
  const remove = async (): Promise<void> => {
    try {
      await onDelete();
    } catch {
      return; // Shown by the API client.
    }
    toast.success(deletedText);
    await onDeleted();
  };
  return (
    <Space size={4}>
      {onEdit ? (
        <Button type="link" size="small" data-testid={editTestId ?? `${testIdPrefix}-edit`} onClick={onEdit}>
          {editLabel}
        </Button>
      ) : null}
      <Popconfirm title={confirmTitle} description={confirmDescription} onConfirm={remove}>
        <Button type="link" size="small" danger data-testid={deleteTestId ?? `${testIdPrefix}-delete`}>
          {deleteLabel}
        </Button>
      </Popconfirm>
    </Space>
  );
}

/** The right-hand 操作 column of the manage tables. */
export function operationColumn<T>(width: number, render: (row: T) => ReactNode): TableColumnType<T> {
  return {
    title: zh.common.operation,
    key: 'operation',
    width,
    fixed: 'right',
    render: (_: unknown, row: T) => render(row),
  };
}
