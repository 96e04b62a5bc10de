import { useCallback, useState } from 'react';
import { Alert, Button, Card, Divider, Flex, Form, Input, Segmented, Spin, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Messages, type LoginOptions, type LoginResult } from '@release/contract';
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
import { goToLark, goToWecom, type LoginPageState } from './lark-sign-in.ts';
import { QrLogin } from './qr-login.tsx';
import { useExternalSignIn } from './use-external-sign-in.ts';

type LoginMethod = 'password' | 'qr';

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
  const signInError = (useLocation().state as LoginPageState | null)?.signInError;
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [serverAskedCode, setServerAskedCode] = useState(false);
  const [isForgetOpen, setIsForgetOpen] = useState(false);
  const options = useQuery({ queryKey: queryKeys.loginOptions, queryFn: ({ signal }) => fetchLoginOptions(signal) });
  const showPhoneCode = serverAskedCode || asksPhoneCode(options.data);
  const [method, setMethod] = useState<LoginMethod>('password');

  const finishLogin = useCallback(
    (result: LoginResult) => {
      queryClient.clear();
      saveLoginSession(result);
      toast.success(zh.login.success);
      void navigate(takeRedirect(), { replace: true });
    },
    [navigate],
  );
  const external = useExternalSignIn(options.data, finishLogin);
  const leaveFor = (go: () => Promise<void>) => {
    // SPEC §8: a login URL that cannot be fetched is an alert.
    go().catch(() => window.alert(zh.login.loginUrlFailed));
  };

  const submit = async (values: LoginValues): Promise<void> => {
    setIsSubmitting(true);
    try {
      const phoneCode = values.phoneCode?.trim();
      const result = await login({
        username: values.username.trim(),
        password: await sha256Hex(values.password),
        phoneCode: showPhoneCode && phoneCode ? phoneCode : undefined,
      });
      // The button keeps spinning until the next page replaces this one (its chunk and data take a moment).
      finishLogin(result);
    } catch (error) {
      setIsSubmitting(false);
      // The server asks for a code it needs: reveal the field (the toast already says so).
      if (isApiError(error) && error.kind === 'business' && error.message === Messages.phoneCodeRequired) {
        setServerAskedCode(true);
      }
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
        {signInError ? (
          <Alert
            type="error"
            showIcon
            message={signInError}
            style={{ marginBottom: 16 }}
            data-testid="login-sign-in-error"
          />
        ) : null}
        {external.busy ? (
          <Flex justify="center" style={{ marginBottom: 16 }}>
            <Spin tip={zh.login.silentSigningIn} data-testid="login-external-busy" />
          </Flex>
        ) : null}
        {options.data?.larkEnabled ? (
          <Segmented<LoginMethod>
            block
            value={method}
            onChange={setMethod}
            options={[
              { label: zh.login.passwordTab, value: 'password' },
              { label: zh.login.qrTab, value: 'qr' },
            ]}
            style={{ marginBottom: 16 }}
            data-testid="login-method"
          />
        ) : null}
        {method === 'qr' ? <QrLogin onLogin={finishLogin} /> : null}
        <Form
          form={form}
          layout="vertical"
          size="large"
          onFinish={(values) => void submit(values)}
          data-testid="login-form"
          hidden={method === 'qr'}
        >
          <Form.Item name="username" rules={[{ required: true, whitespace: true, message: zh.login.usernameRequired }]}>
            <Input
              prefix={<UserOutlined />}
              placeholder={zh.login.username}
              autoComplete="username"
              data-testid="login-username"
            />
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
        {options.data?.larkEnabled || options.data?.wecomEnabled ? <Divider plain /> : null}
        <Flex vertical gap={8}>
          {options.data?.larkEnabled ? (
            <Button
              block
              size="large"
              data-testid="login-feishu"
              onClick={() => leaveFor(() => goToLark('success_login'))}
            >
              {zh.login.feishu}
            </Button>
          ) : null}
          {options.data?.wecomEnabled ? (
            <Button block size="large" data-testid="login-wecom" onClick={() => leaveFor(goToWecom)}>
              {zh.login.wecom}
            </Button>
          ) : null}
        </Flex>
      </Card>
      <ForgetPasswordModal open={isForgetOpen} onClose={() => setIsForgetOpen(false)} />
    </div>
  );
}
