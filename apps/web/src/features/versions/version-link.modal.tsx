import { Button, Flex, Modal, Typography } from 'antd';
import { CopyOutlined, ExportOutlined } from '@ant-design/icons';
import { QRCodeSVG } from 'qrcode.react';
import type { AppVersionRow } from '@release/contract';
import { copyText } from '../../app/clipboard.ts';
import { LoopbackQrWarning } from '../../app/components/loopback-qr-warning.tsx';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { APP_QR_LEVEL } from '../apps/app.constants.ts';
import { versionTitle } from './version-format.ts';
import { versionsText } from './versions.strings.ts';

/** The install page of one build (`<download address>?id=<version id>`). */
export const versionInstallUrl = (downloadUrl: string, version: Pick<AppVersionRow, 'id'>) =>
  `${downloadUrl}?id=${version.id}`;

/** 链接/二维码 of a version: that build's own install page, to paste into a chat or scan on a phone. */
export function VersionLinkModal({
  version,
  downloadUrl,
  onClose,
}: {
  version: AppVersionRow | null;
  downloadUrl: string;
  onClose: () => void;
}) {
  const url = version ? versionInstallUrl(downloadUrl, version) : '';
  const copy = async () => {
    if (await copyText(url)) toast.success(zh.appPage.copied);
    else toast.warning(zh.appPage.copyFailed);
  };
  return (
    <Modal
      open={version !== null}
      title={version ? versionsText.linkTitle(versionTitle(version)) : ''}
      footer={null}
      onCancel={onClose}
      width={360}
      destroyOnHidden
    >
      {version && (
        <Flex vertical align="center" gap={12} data-testid="version-link-modal">
          <div data-testid="version-link-qr" data-qr-value={url}>
            <QRCodeSVG value={url} size={180} level={APP_QR_LEVEL} marginSize={1} />
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
            {versionsText.linkHint}
          </Typography.Text>
          <Typography.Link
            href={url}
            target="_blank"
            rel="noreferrer"
            style={{ wordBreak: 'break-all', textAlign: 'center' }}
            data-testid="version-link-url"
          >
            {url}
          </Typography.Link>
          <Flex gap={8}>
            <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy()} data-testid="version-link-copy">
              {versionsText.linkCopy}
            </Button>
            <Button icon={<ExportOutlined />} href={url} target="_blank" rel="noreferrer">
              {versionsText.linkOpen}
            </Button>
          </Flex>
          <LoopbackQrWarning url={url} />
        </Flex>
      )}
    </Modal>
  );
}
