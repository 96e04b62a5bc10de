import { Alert, Button, Flex, Modal, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import dayjs from 'dayjs';
import type { DeviceEnrollLink } from '@release/contract';
import { api } from '../../api/client.ts';
import { LoopbackQrWarning } from '../../app/components/loopback-qr-warning.tsx';
import { enrollText } from './device-enroll.strings.ts';

/** 注册我的设备 (user menu): a one-time profile link for the signed-in user's own iPhone, as a QR code and a link. */
export function MyDeviceModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const link = useQuery({
    queryKey: ['device-enroll', 'mine'],
    queryFn: async () => (await api.post<DeviceEnrollLink>('/api/device_enroll', {})).data,
    enabled: open,
    // Each opening gets a fresh one-time link.
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={enrollText.mine}
      destroyOnHidden
      width={420}
      data-testid="my-device-modal"
    >
      <Flex vertical gap={12} align="center">
        <Typography.Text>{enrollText.mineIntro}</Typography.Text>
        {link.isPending && <Spin />}
        {link.isError && <Alert type="error" showIcon title={enrollText.failed} />}
        {link.data && (
          <>
            <QRCodeSVG value={link.data.profileUrl} size={180} marginSize={1} data-testid="my-device-qr" />
            <Button href={link.data.profileUrl} data-testid="my-device-link">
              {enrollText.mineOpen}
            </Button>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {enrollText.mineExpires(dayjs(link.data.expireTime).format('HH:mm'))}
            </Typography.Text>
            <LoopbackQrWarning url={link.data.profileUrl} />
          </>
        )}
        <ol style={{ margin: 0, paddingInlineStart: 20, alignSelf: 'stretch' }}>
          {enrollText.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </Flex>
    </Modal>
  );
}
