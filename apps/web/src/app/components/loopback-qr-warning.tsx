import { Alert } from 'antd';
import { Link } from 'react-router-dom';
import { RoutePath } from '@release/contract';
import { isLoopbackUrl } from '../loopback-url.ts';
import { useIsAdmin } from '../session.store.ts';

export const loopbackQrText = {
  title: '二维码中的地址是本机地址，手机无法打开',
  description: '请管理员把服务的 PUBLIC_URL 设置为手机能访问的地址后重启服务，或用局域网地址打开本页。',
  check: '在 设置 → 系统 中检查站点地址',
} as const;

/**
 * Beside a QR code: a warning when the link inside it points at this machine (no PUBLIC_URL, page opened as
 * localhost). Admins get a link to 设置 → 系统 (站点地址自检). Nothing when the link is reachable from a phone.
 */
export function LoopbackQrWarning({ url }: { url: string }) {
  const isAdmin = useIsAdmin();
  if (!isLoopbackUrl(url)) return null;
  return (
    <Alert
      type="warning"
      showIcon
      title={loopbackQrText.title}
      description={
        <>
          {loopbackQrText.description}
          {isAdmin && (
            <>
              {' '}
              <Link to={`${RoutePath.setting}/system`} data-testid="qr-loopback-check">
                {loopbackQrText.check}
              </Link>
            </>
          )}
        </>
      }
      style={{ maxWidth: 260, fontSize: 12, textAlign: 'left' }}
      data-testid="qr-loopback-warning"
    />
  );
}
