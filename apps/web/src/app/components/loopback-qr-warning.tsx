import { Alert } from 'antd';
import { Link } from 'react-router-dom';
import { RoutePath } from '@release/contract';
import { isLoopbackUrl, loopbackQrText } from '../loopback-url.ts';
import { useIsAdmin } from '../session.store.ts';

export { loopbackQrText };

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
