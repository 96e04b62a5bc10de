import { useState } from 'react';
import { Checkbox, Flex, Form, InputNumber, Modal, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { THRESHOLD_LIMITS, type PackageThresholds } from '@release/contract';
import { fetchPackageThresholds, packageChangesKeys, savePackageThresholds } from '../../api/package-changes.api.ts';
import { QueryFailed } from '../../app/components/query-failed.tsx';
import { SaveFooter } from '../../app/components/save-footer.tsx';
import { useFillOnOpen } from '../../app/components/use-fill-on-open.ts';
import { toast } from '../../app/feedback.ts';
import { packageText as text } from './package-changes.strings.ts';

/** The form's values: an empty number is "not watched" (null). */
type ThresholdForm = Omit<PackageThresholds, 'sizePercent' | 'sizeMb'> & {
  sizePercent?: number | null;
  sizeMb?: number | null;
};

const switches: Array<{ name: 'dangerousPermission' | 'certificate' | 'minOsRaised'; label: string }> = [
  { name: 'dangerousPermission', label: text.dangerousPermission },
  { name: 'certificate', label: text.certificate },
  { name: 'minOsRaised', label: text.minOsRaised },
];

/** 安装包提醒: the app's package thresholds (issue 19), editors of the app. */
export function PackageThresholdsModal({
  open,
  appId,
  onClose,
}: {
  open: boolean;
  appId: number;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ThresholdForm>();
  const [saving, setSaving] = useState(false);
  const stored = useQuery({
    queryKey: packageChangesKeys.thresholds(appId),
    queryFn: ({ signal }) => fetchPackageThresholds(appId, signal),
    enabled: open,
  });
  const filled = useFillOnOpen(open, stored.data, (values) => form.setFieldsValue(values));

  const save = async (): Promise<void> => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const saved = await savePackageThresholds({
        appId,
        sizePercent: values.sizePercent ?? null,
        sizeMb: values.sizeMb ?? null,
        dangerousPermission: values.dangerousPermission === true,
        certificate: values.certificate === true,
        minOsRaised: values.minOsRaised === true,
      });
      queryClient.setQueryData(packageChangesKeys.thresholds(appId), saved);
    } catch {
      return; // Shown by the API client.
    } finally {
      setSaving(false);
    }
    toast.success(text.saved);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={text.thresholdsTitle}
      onCancel={onClose}
      destroyOnHidden
      data-testid="package-thresholds-modal"
      footer={
        <SaveFooter
          onCancel={onClose}
          onSave={() => void save()}
          saving={saving}
          disabled={!filled}
          saveTestId="package-thresholds-save"
        />
      }
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{text.thresholdsIntro}</Typography.Text>
        {stored.isError && <QueryFailed title={text.loadFailed} onRetry={() => void stored.refetch()} />}
        <Form form={form} disabled={!filled} layout="vertical">
          <Flex gap={16} wrap>
            <Form.Item name="sizePercent" label={text.sizePercent}>
              <InputNumber
                min={THRESHOLD_LIMITS.sizePercent.min}
                max={THRESHOLD_LIMITS.sizePercent.max}
                precision={0}
                placeholder={text.off}
                data-testid="package-thresholds-percent"
              />
            </Form.Item>
            <Form.Item name="sizeMb" label={text.sizeMb}>
              <InputNumber
                min={THRESHOLD_LIMITS.sizeMb.min}
                max={THRESHOLD_LIMITS.sizeMb.max}
                precision={0}
                placeholder={text.off}
                data-testid="package-thresholds-mb"
              />
            </Form.Item>
          </Flex>
          {switches.map((s) => (
            <Form.Item key={s.name} name={s.name} valuePropName="checked" style={{ marginBottom: 8 }}>
              <Checkbox data-testid={`package-thresholds-${s.name}`}>{s.label}</Checkbox>
            </Form.Item>
          ))}
        </Form>
      </Flex>
    </Modal>
  );
}
