import type { ReactNode } from 'react';
import { Button, Flex } from 'antd';
import { zh } from '../../locales/zh-CN.ts';

/** A settings modal's footer: 取消, the modal's own buttons (`children`), then 保存. */
export function SaveFooter({
  onCancel,
  onSave,
  saving,
  disabled,
  saveTestId,
  children,
}: {
  onCancel: () => void;
  onSave: () => void;
  saving: boolean;
  /** Until the stored values are in the form. */
  disabled: boolean;
  saveTestId: string;
  children?: ReactNode;
}) {
  return (
    <Flex justify="flex-end" gap={8} wrap>
      <Button onClick={onCancel}>{zh.common.cancel}</Button>
      {children}
      <Button type="primary" onClick={onSave} loading={saving} disabled={disabled} data-testid={saveTestId}>
        {zh.common.save}
      </Button>
    </Flex>
  );
}
