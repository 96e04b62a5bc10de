import { Form, Input, InputNumber, Modal } from 'antd';
import { ADMIN_ROLE_LEVEL, type RoleRow } from '@release/contract';
import { saveRole } from '../../api/roles.api.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
import { zh } from '../../locales/zh-CN.ts';

interface RoleFormValues {
  roleName: string;
  roleLevel: number;
}

interface RoleEditModalProps {
  open: boolean;
  role: RoleRow | null;
  onClose: () => void;
  onSaved: () => void;
}

/** 新增角色 / 编辑角色: a name and a level from 0 to 100 (100 is admin). */
export function RoleEditModal({ open, role, onClose, onSaved }: RoleEditModalProps) {
  const [form] = Form.useForm<RoleFormValues>();
  useResetOnOpen(form, open, role, (r) => ({ roleName: r.roleName, roleLevel: r.roleLevel }));
  const action = useSaveAction({
    form,
    save: (values) => saveRole({ roleId: role?.roleId, roleName: values.roleName.trim(), roleLevel: values.roleLevel }),
    onSaved,
  });

  return (
    <Modal
      title={role ? zh.roleManage.editTitle : zh.roleManage.addTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      forceRender
      width="min(480px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid="role-modal" initialValues={{ roleLevel: 0 }}>
        <Form.Item
          name="roleName"
          label={zh.roleManage.roleName}
          rules={[{ required: true, whitespace: true, message: zh.roleManage.roleNameRequired }]}
        >
          <Input maxLength={64} data-testid="role-name" />
        </Form.Item>
        <Form.Item
          name="roleLevel"
          label={zh.roleManage.roleLevel}
          extra={zh.roleManage.roleLevelHint}
          rules={[
            {
              required: true,
              type: 'integer',
              min: 0,
              max: ADMIN_ROLE_LEVEL,
              message: zh.roleManage.roleLevelRequired,
            },
          ]}
        >
          <InputNumber
            min={0}
            max={ADMIN_ROLE_LEVEL}
            precision={0}
            style={{ width: '100%' }}
            data-testid="role-level"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
