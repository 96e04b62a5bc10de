import { Form, Input, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { UserRow } from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchRoles } from '../../api/roles.api.ts';
import { saveUser } from '../../api/users.api.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
import { zh } from '../../locales/zh-CN.ts';
import { MIN_PASSWORD_LENGTH } from '../auth/password-rules.ts';
import { sha256Hex } from '../auth/sha256.ts';

interface UserFormValues {
  username: string;
  password?: string;
  roleId: number;
  phone?: string;
}

interface UserEditModalProps {
  open: boolean;
  /** null: create a user. */
  user: UserRow | null;
  onClose: () => void;
  onSaved: () => void;
}

/** 新增用户 / 编辑: the password is hashed here; required on create, optional on edit. */
export function UserEditModal({ open, user, onClose, onSaved }: UserEditModalProps) {
  const [form] = Form.useForm<UserFormValues>();
  const roles = useQuery({
    queryKey: queryKeys.roleList(1, 1000),
    queryFn: ({ signal }) => fetchRoles(1, 1000, signal),
    enabled: open,
  });
  const isCreate = user === null;

  useResetOnOpen(form, open, user, (u) => ({ username: u.username, roleId: u.roleId, phone: u.phone ?? '' }));
  const action = useSaveAction({
    form,
    save: async (values) =>
      saveUser({
        userId: user?.userId,
        username: values.username.trim(),
        password: values.password ? await sha256Hex(values.password) : undefined,
        roleId: values.roleId,
        phone: values.phone?.trim() || null,
      }),
    onSaved,
  });

  return (
    <Modal
      title={isCreate ? zh.userManage.addTitle : zh.userManage.editTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      forceRender
      width="min(520px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid="user-modal">
        <Form.Item
          name="username"
          label={zh.userManage.username}
          rules={[{ required: true, whitespace: true, message: zh.login.usernameRequired }]}
        >
          <Input autoComplete="off" maxLength={64} data-testid="user-username" />
        </Form.Item>
        <Form.Item
          name="password"
          label={zh.userManage.password}
          extra={isCreate ? undefined : zh.userManage.passwordEditHint}
          rules={[
            { required: isCreate, message: zh.login.passwordRequired },
            { min: MIN_PASSWORD_LENGTH, message: zh.forget.passwordMin },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="user-password" />
        </Form.Item>
        <Form.Item
          name="roleId"
          label={zh.userManage.role}
          rules={[{ required: true, message: zh.userManage.roleRequired }]}
        >
          <Select
            data-testid="user-role"
            loading={roles.isLoading}
            options={(roles.data?.rows ?? []).map((role) => ({
              value: role.roleId,
              label: `${role.roleName}（${role.roleLevel}）`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="phone"
          label={zh.userManage.phone}
          rules={[{ pattern: /^\+?[0-9]{6,20}$/, message: zh.userManage.phoneFormat }]}
        >
          <Input inputMode="tel" autoComplete="off" data-testid="user-phone" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
