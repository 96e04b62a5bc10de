import { useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { resetForgottenPassword } from '../../api/auth.api.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { MIN_PASSWORD_LENGTH } from './password-rules.ts';
import { PhoneCodeInput } from './phone-code-input.tsx';
import { sha256Hex } from './sha256.ts';

interface ForgetPasswordValues {
  username: string;
  phoneCode: string;
  password: string;
  confirm: string;
}

/** 忘记密码: a phone code (scene forget_password) and the new password twice. */
export function ForgetPasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<ForgetPasswordValues>();
  const [isSaving, setIsSaving] = useState(false);

  const submit = async (): Promise<void> => {
    const values = await form.validateFields();
    setIsSaving(true);
    try {
      await resetForgottenPassword({
        username: values.username.trim(),
        phoneCode: values.phoneCode.trim(),
        password: await sha256Hex(values.password),
      });
      toast.success(zh.forget.success);
      form.resetFields();
      onClose();
    } catch {
      // Shown by the API client.
    } finally {
      setIsSaving(false);
    }
  };

  const getUsername = async (): Promise<string | null> => {
    try {
      const { username } = await form.validateFields(['username']);
      return username.trim();
    } catch {
      return null;
    }
  };

  return (
    <Modal
      title={zh.forget.title}
      open={open}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={zh.forget.submit}
      cancelText={zh.common.cancel}
      confirmLoading={isSaving}
      destroyOnHidden
      width="min(440px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid="forget-password-modal" preserve={false}>
        <Form.Item
          name="username"
          label={zh.login.username}
          rules={[{ required: true, whitespace: true, message: zh.login.usernameRequired }]}
        >
          <Input autoComplete="username" data-testid="forget-username" />
        </Form.Item>
        <Form.Item
          name="phoneCode"
          label={zh.login.phoneCode}
          rules={[
            { required: true, message: zh.login.phoneCodeRequired },
            { pattern: /^\d{6}$/, message: zh.login.phoneCodeFormat },
          ]}
        >
          <PhoneCodeInput scene="forget_password" getUsername={getUsername} testIdPrefix="forget" />
        </Form.Item>
        <Form.Item
          name="password"
          label={zh.forget.newPassword}
          rules={[
            { required: true, message: zh.login.passwordRequired },
            { min: MIN_PASSWORD_LENGTH, message: zh.forget.passwordMin },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="forget-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={zh.forget.confirmPassword}
          dependencies={['password']}
          rules={[
            { required: true, message: zh.login.passwordRequired },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(zh.forget.mismatch)),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="forget-confirm" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
