import { useState } from 'react';
import { Button, Card, Divider, Flex, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Messages, type LoginOptions } from '@release/contract';
import { fetchLoginOptions, login } from '../../api/auth.api.ts';
import { isApiError } from '../../api/api-error.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { toast } from '../../app/feedback.ts';
import { queryClient } from '../../app/query-client.ts';
import { takeRedirect } from '../../app/redirect.ts';
import { saveLoginSession } from '../../app/session.store.ts';
import { zh } from '../../locales/zh-CN.ts';
import { ForgetPasswordModal } from './forget-password.modal.tsx';
import { PhoneCodeInput } from './phone-code-input.tsx';
import { sha256Hex } from './sha256.ts';

interface LoginValues {
  username: string;
  password: string;
  phoneCode?: string;
}

function asksPhoneCode(options: LoginOptions | undefined): boolean {
  if (!options) return false;
  return options.phoneCodeMode === 'always' || (options.phoneCodeMode === 'auto' && options.smsConfigured);
}

/** /login: username, password (SHA-256 on the client) and, when needed, a phone code. */
export function LoginPage() {
  const [form] = Form.useForm<LoginValues>();
  const navigate = useNavigate();
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [serverAskedCode, setServerAskedCode] = useState(false);
  const [isForgetOpen, setIsForgetOpen] = useState(false);
  const options = useQuery({ queryKey: queryKeys.loginOptions, queryFn: ({ signal }) => fetchLoginOptions(signal) });
  const showPhoneCode = serverAskedCode || asksPhoneCode(options.data);

  const submit = async (values: LoginValues): Promise<void> => {
    setIsSubmitting(true);
    try {
      const phoneCode = values.phoneCode?.trim();
      const result = await login({
        username: values.username.trim(),
        password: await sha256Hex(values.password),
        phoneCode: showPhoneCode && phoneCode ? phoneCode : undefined,
      });
      queryClient.clear();
      saveLoginSession(result);
      toast.success(zh.login.success);
      navigate(takeRedirect(), { replace: true });
    } catch (error) {
      // The server asks for a code it needs: reveal the field (the toast already says so).
      if (isApiError(error) && error.kind === 'business' && error.message === Messages.phoneCodeRequired) {
        setServerAskedCode(true);
      }
    } finally {
      setIsSubmitting(false);
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
    <div className="standalone-page" style={{ justifyContent: 'center' }}>
      <Card style={{ width: '100%', maxWidth: 400 }} data-testid="login-card">
        <Flex vertical align="center" style={{ marginBottom: 24 }}>
          <Typography.Title level={2} style={{ margin: 0 }} data-testid="login-title">
            {zh.appTitle}
          </Typography.Title>
          <Typography.Text type="secondary">{zh.login.subtitle}</Typography.Text>
        </Flex>
        <Form form={form} layout="vertical" size="large" onFinish={(values) => void submit(values)} data-testid="login-form">
          <Form.Item name="username" rules={[{ required: true, whitespace: true, message: zh.login.usernameRequired }]}>
            <Input prefix={<UserOutlined />} placeholder={zh.login.username} autoComplete="username" data-testid="login-username" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: zh.login.passwordRequired }]}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={zh.login.password}
              autoComplete="current-password"
              data-testid="login-password"
            />
          </Form.Item>
          {showPhoneCode ? (
            <Form.Item name="phoneCode" rules={[{ pattern: /^\d{6}$/, message: zh.login.phoneCodeFormat }]}>
              <PhoneCodeInput scene="login" getUsername={getUsername} testIdPrefix="login" />
            </Form.Item>
          ) : null}
          <Button type="primary" htmlType="submit" block loading={isSubmitting} data-testid="login-submit">
            {zh.login.submit}
          </Button>
        </Form>
        <Flex justify="flex-end" style={{ marginTop: 12 }}>
          <Typography.Link onClick={() => setIsForgetOpen(true)} data-testid="login-forgot">
            {zh.login.forgot}
          </Typography.Link>
        </Flex>
        {options.data?.larkEnabled ? (
          <>
            <Divider plain />
            <Button block size="large" data-testid="login-feishu" onClick={() => toast.info(zh.login.feishuUnavailable)}>
              {zh.login.feishu}
            </Button>
          </>
        ) : null}
      </Card>
      <ForgetPasswordModal open={isForgetOpen} onClose={() => setIsForgetOpen(false)} />
    </div>
  );
}
