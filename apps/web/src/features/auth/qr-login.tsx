import { useEffect } from 'react';
import { Alert, Button, Flex, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import type { LoginResult } from '@release/contract';
import { pollQrLogin, startQrLogin } from '../../api/sso.api.ts';
import { zh } from '../../locales/zh-CN.ts';

const POLL_MS = 2000;
const QR_SIZE = 180;

/**
 * Lark QR login: the code holds Lark's authorize URL; the phone that scans it approves in Lark and lands
 * on /callback/feishu, which tells the server; this screen polls and picks the session up once.
 */
export function QrLogin({ onLogin }: { onLogin: (result: LoginResult) => void }) {
  const started = useQuery({
    queryKey: ['qr-login'],
    queryFn: startQrLogin,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const qrId = started.data?.qrId;
  const polled = useQuery({
    queryKey: ['qr-login', qrId],
    queryFn: ({ signal }) => pollQrLogin(qrId ?? '', signal),
    enabled: Boolean(qrId),
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'pending' ? false : POLL_MS),
    gcTime: 0,
  });
  const status = polled.data?.status ?? 'pending';
  const login = polled.data?.login;

  useEffect(() => {
    if (login) onLogin(login);
  }, [login, onLogin]);

  if (started.isPending) return <Spin data-testid="qr-login-loading" />;
  if (started.isError || !started.data?.url)
    return <Alert type="error" showIcon message={zh.login.qrUnavailable} data-testid="qr-login-error" />;
  const restart = () => void started.refetch();
  return (
    <Flex vertical align="center" gap={12} data-testid="qr-login">
      <QRCodeSVG
        value={started.data.url}
        size={QR_SIZE}
        level="M"
        marginSize={1}
        data-testid="qr-login-code"
        data-url={started.data.url}
      />
      {status === 'pending' ? <Typography.Text type="secondary">{zh.login.qrHint}</Typography.Text> : null}
      {status === 'denied' || status === 'expired' ? (
        <>
          <Alert
            type="warning"
            showIcon
            message={status === 'denied' ? zh.login.qrDenied : zh.login.qrExpired}
            data-testid="qr-login-status"
          />
          <Button onClick={restart} data-testid="qr-login-refresh">
            {zh.login.qrRefresh}
          </Button>
        </>
      ) : null}
    </Flex>
  );
}
