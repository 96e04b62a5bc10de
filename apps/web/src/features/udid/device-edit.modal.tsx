import { Form, Input, Modal, Select } from 'antd';
import {
  DEVICE_NAME_MAX_LENGTH,
  DeviceMessages,
  devicePlatformLabels,
  devicePlatforms,
  normalizeUdid,
  type DevicePlatform,
  type DeviceRow,
} from '@release/contract';
import { saveDevice } from '../../api/devices.api.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
import { udidText as t } from './udid.strings.ts';

interface DeviceValues {
  udid: string;
  deviceName: string;
  platform: DevicePlatform;
  model?: string;
  remark?: string;
}

/** 添加设备 / 编辑设备: the UDID is checked here as the server checks it. */
export function DeviceEditModal({
  open,
  device,
  onClose,
  onSaved,
}: {
  open: boolean;
  device: DeviceRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<DeviceValues>();
  useResetOnOpen(
    form,
    open,
    device,
    (d) => ({ udid: d.udid, deviceName: d.deviceName, platform: d.platform, model: d.model ?? '', remark: d.remark }),
    () => ({ platform: 'ios' as const }),
  );
  const action = useSaveAction({
    form,
    save: (values) =>
      saveDevice({
        id: device?.id,
        udid: values.udid.trim(),
        deviceName: values.deviceName.trim(),
        platform: values.platform,
        model: values.model?.trim() || null,
        remark: values.remark?.trim() ?? '',
      }),
    onSaved,
  });

  return (
    <Modal
      title={device ? t.editTitle : t.addTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      forceRender
      width="min(520px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid="device-modal">
        <Form.Item name="platform" label={t.fields.platform}>
          <Select
            data-testid="device-platform"
            options={devicePlatforms.map((p) => ({ value: p, label: devicePlatformLabels[p] }))}
          />
        </Form.Item>
        <Form.Item
          name="udid"
          label={t.fields.udid}
          extra={t.fields.udidHint}
          dependencies={['platform']}
          rules={[
            { required: true, whitespace: true, message: t.fields.udidRequired },
            ({ getFieldValue }) => ({
              validator: async (_, value: string | undefined) => {
                const platform = getFieldValue('platform') as DevicePlatform;
                if (value?.trim() && !normalizeUdid(value, platform))
                  throw new Error(DeviceMessages.udidInvalid(platform));
              },
            }),
          ]}
        >
          <Input autoComplete="off" spellCheck={false} data-testid="device-udid" />
        </Form.Item>
        <Form.Item
          name="deviceName"
          label={t.fields.name}
          rules={[{ required: true, whitespace: true, message: t.fields.nameRequired }]}
        >
          <Input maxLength={DEVICE_NAME_MAX_LENGTH} data-testid="device-name" />
        </Form.Item>
        <Form.Item name="model" label={t.fields.model}>
          <Input maxLength={64} placeholder="iPhone 15 Pro" />
        </Form.Item>
        <Form.Item name="remark" label={t.fields.remark}>
          <Input.TextArea maxLength={200} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
