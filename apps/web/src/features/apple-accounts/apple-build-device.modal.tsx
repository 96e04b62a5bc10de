import { Form, Modal, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { ZsignMessages, type AppleAccountRow } from '@release/contract';
import { addDeviceToBuild } from '../../api/apple-accounts.api.ts';
import { fetchSimpleVersions } from '../../api/commit-logs.api.ts';
import { fetchDevices } from '../../api/devices.api.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
import { toast } from '../../app/feedback.ts';
import { appleAccountText as t } from './apple-account.strings.ts';

interface BuildDeviceValues {
  appId: number;
  appVersionId: number;
  deviceId: number;
}

// Only confirmed devices go to Apple (an install page visitor's wait for an admin's 确认).
const ALL_DEVICES = {
  pageNo: 1,
  pageSize: 1000,
  keyword: '',
  platform: 'ios' as const,
  reviewStatus: 'confirmed' as const,
};

/** 添加设备到安装包: register a tester's phone, regenerate the profile and re-sign the build, in one go. */
export function AppleBuildDeviceModal({
  account,
  appNames,
  onClose,
  onDone,
}: {
  account: AppleAccountRow | null;
  appNames: Map<number, string>;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<BuildDeviceValues>();
  const open = account !== null;
  const appId = Form.useWatch('appId', form);
  const versions = useQuery({
    queryKey: ['simple-versions', appId],
    queryFn: ({ signal }) => fetchSimpleVersions(appId, signal),
    enabled: open && Boolean(appId),
  });
  const devices = useQuery({
    queryKey: ['devices', ALL_DEVICES],
    queryFn: ({ signal }) => fetchDevices(ALL_DEVICES, signal),
    enabled: open,
  });
  useResetOnOpen(form, open, account, (a) => ({ appId: a.appIds[0] }));
  const action = useSaveAction({
    form,
    successText: t.buildDeviceDone,
    save: (values) => addDeviceToBuild({ appVersionId: values.appVersionId, deviceId: values.deviceId }),
    onSaved: (result) => {
      const made = result.job.version;
      if (result.job.status === 'done' && made)
        toast.success(ZsignMessages.success(made.appVersion ?? `#${made.indexNo}`));
      else if (result.job.status === 'failed') toast.error(result.job.error ?? t.buildDevicePending);
      else toast.info(t.buildDevicePending);
      onDone();
    },
  });
  return (
    <Modal
      title={t.buildDeviceTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      okText={t.buildDeviceOk}
      okButtonProps={{ 'data-testid': 'apple-build-device-submit' }}
      forceRender
      width="min(560px, calc(100vw - 32px))"
    >
      <Typography.Paragraph type="secondary">{t.buildDeviceHint}</Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="apple-build-device-modal">
        <Form.Item name="appId" label={t.bindApps} rules={[{ required: true, message: t.buildDeviceAppRequired }]}>
          <Select
            data-testid="apple-build-device-app"
            options={(account?.appIds ?? []).map((id) => ({ value: id, label: appNames.get(id) ?? `#${id}` }))}
            onChange={() => form.setFieldValue('appVersionId', undefined)}
          />
        </Form.Item>
        <Form.Item
          name="appVersionId"
          label={t.buildDeviceVersion}
          rules={[{ required: true, message: t.buildDeviceVersionRequired }]}
        >
          <Select
            data-testid="apple-build-device-version"
            loading={versions.isFetching}
            options={(versions.data?.ipa ?? []).map((v) => ({
              value: v.appVersionId,
              label: `#${v.indexNo} ${v.appVersion ?? ''}${v.build ? ` (${v.build})` : ''}`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="deviceId"
          label={t.buildDeviceDevice}
          rules={[{ required: true, message: t.buildDeviceDeviceRequired }]}
        >
          <Select
            data-testid="apple-build-device-device"
            showSearch
            optionFilterProp="label"
            loading={devices.isFetching}
            options={(devices.data?.rows ?? []).map((d) => ({ value: d.id, label: `${d.deviceName}（${d.udid}）` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
