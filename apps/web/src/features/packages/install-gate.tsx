import { useEffect } from 'react';
import { Button, Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { installText } from './install.strings.ts';

const PASSWORD_PATTERN = /^\d{6,10}$/;

interface InstallGateProps {
  /** The server's answer to the last try (安装密码错误, 密码错误次数过多…), shown under the field. */
  error: string | null;
  /** Changes with every answer, so the same message twice is shown again. */
  answeredAt: number;
  isUnlocking: boolean;
  onUnlock: (password: string) => void;
}

/** The install password (6-10 digits) that opens the page. */
export function InstallGate({ error, answeredAt, isUnlocking, onUnlock }: InstallGateProps) {
  const [form] = Form.useForm<{ password: string }>();

  useEffect(() => {
    if (error) form.setFields([{ name: 'password', errors: [error] }]);
  }, [error, answeredAt, form]);

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={({ password }) => onUnlock(password)}
      onValuesChange={() => form.setFields([{ name: 'password', errors: [] }])}
      data-testid="install-gate"
    >
      <Form.Item
        name="password"
        label={installText.passwordLabel}
        extra={installText.passwordHint}
        validateTrigger="onSubmit"
        rules={[
          { required: true, message: installText.passwordPlaceholder },
          { pattern: PASSWORD_PATTERN, message: installText.passwordFormat },
        ]}
      >
        <Input.Password
          size="large"
          prefix={<LockOutlined />}
          inputMode="numeric"
          autoComplete="off"
          maxLength={10}
          placeholder={installText.passwordPlaceholder}
          data-testid="install-password"
          autoFocus
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={isUnlocking} data-testid="install-submit">
        {installText.unlock}
      </Button>
    </Form>
  );
}
