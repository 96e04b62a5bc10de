import { Button, Flex, Tooltip, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { copyText } from '../../../app/clipboard.ts';
import { lazyPart } from '../../../app/components/lazy-part.tsx';
import { LoopbackQrWarning } from '../../../app/components/loopback-qr-warning.tsx';
import { toast } from '../../../app/feedback.ts';
import { zh } from '../../../locales/zh-CN.ts';
import { APP_QR_LEVEL, APP_QR_SIZE } from '../app.constants.ts';

/** The QR drawing comes in its own chunk, in a box of its size (the app page's first load: bench/web-size.ts). */
const QRCodeSVG = lazyPart(
  () => import('qrcode.react'),
  'QRCodeSVG',
  <div style={{ width: APP_QR_SIZE, height: APP_QR_SIZE }} />,
);

/** The install address with a copy button: 已复制到剪切板, or a warning when the browser refuses. */
export function DownloadAddress({ url }: { url: string }) {
  const copy = async (): Promise<void> => {
    if (await copyText(url)) toast.success(zh.appPage.copied);
    else toast.warning(zh.appPage.copyFailed);
  };
  return (
    <Flex align="center" gap={4} style={{ minWidth: 0, maxWidth: '100%' }}>
      <Typography.Link
        href={url}
        target="_blank"
        rel="noreferrer"
        ellipsis
        data-testid="app-download-url"
        style={{ minWidth: 0 }}
      >
        {url}
      </Typography.Link>
      <Tooltip title={zh.appPage.copy}>
        <Button
          type="text"
          size="small"
          icon={<CopyOutlined />}
          aria-label={zh.appPage.copy}
          data-testid="app-copy"
          onClick={() => void copy()}
        />
      </Tooltip>
    </Flex>
  );
}

/** QR code of the install address (SPEC §9: 125 px, error correction H), with a warning when it is a loopback address. */
export function DownloadQrCode({ url }: { url: string }) {
  return (
    <Flex vertical align="center" gap={4} data-testid="app-qr" data-qr-value={url}>
      <QRCodeSVG value={url} size={APP_QR_SIZE} level={APP_QR_LEVEL} marginSize={1} title={zh.appPage.qrHint} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {zh.appPage.qrHint}
      </Typography.Text>
      <LoopbackQrWarning url={url} />
    </Flex>
  );
}
