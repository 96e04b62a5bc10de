import { useState, type ReactElement } from 'react';
import { Alert, Modal } from 'antd';
import { zh } from '../../locales/zh-CN.ts';

/**
 * The 添加应用 modal. App creation ships with app management; until then the modal says so
 * plainly and its create button stays disabled.
 */
export function useAddAppModal(): [ReactElement, () => void] {
  const [open, setOpen] = useState(false);
  const modal = (
    <Modal
      title={zh.addApp.title}
      open={open}
      onCancel={() => setOpen(false)}
      okText={zh.addApp.submit}
      okButtonProps={{ disabled: true }}
      cancelText={zh.common.cancel}
      destroyOnHidden
    >
      <div data-testid="add-app-modal">
        <Alert type="info" showIcon title={zh.addApp.notice} description={zh.addApp.description} />
      </div>
    </Modal>
  );
  return [modal, () => setOpen(true)];
}
