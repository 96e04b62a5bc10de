import { useEffect, useState } from 'react';
import { Alert, Button, Flex, Form, List, Modal, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RetentionPreview, RetentionRule } from '@release/contract';
import { fetchRetention, fetchRetentionPreview, saveRetention } from '../../api/versions.api.ts';
import { QueryFailed } from '../../app/components/query-failed.tsx';
import { SaveFooter } from '../../app/components/save-footer.tsx';
import { useFillOnOpen } from '../../app/components/use-fill-on-open.ts';
import { toast } from '../../app/feedback.ts';
import { PackageTypeTag } from './package-type.tsx';
import { formatBytes, formatVersionTime, versionTitle } from './version-format.ts';
import { RetentionRuleFields } from './retention-rule.fields.tsx';
import { versionsText } from './versions.strings.ts';

interface RetentionModalProps {
  open: boolean;
  appId: number;
  onClose: () => void;
}

const retentionKey = (appId: number) => ['versions', 'retention', appId] as const;

function DryRun({ preview }: { preview: RetentionPreview }) {
  if (!preview.builds.length)
    return <Alert type="success" showIcon title={versionsText.retentionNone} data-testid="retention-dry-run" />;
  return (
    <List
      size="small"
      data-testid="retention-dry-run"
      header={
        <Typography.Text strong data-testid="retention-dry-run-summary">
          {versionsText.retentionWouldRemove(preview.builds.length, formatBytes(preview.freedBytes))}
        </Typography.Text>
      }
      dataSource={preview.builds}
      style={{ maxHeight: 280, overflowY: 'auto' }}
      renderItem={(build) => (
        <List.Item data-testid="retention-dry-run-build" data-version-id={build.id}>
          <Flex justify="space-between" gap={8} style={{ width: '100%', minWidth: 0 }} wrap>
            <Typography.Text ellipsis={{ tooltip: build.fileName }} style={{ minWidth: 0 }}>
              #{build.indexNo} {versionTitle(build)}
            </Typography.Text>
            <Flex gap={8} align="center">
              <PackageTypeTag version={{ nativePackageType: build.nativePackageType, fileName: build.fileName }} />
              {build.reason === 'quota' && (
                <Tag color="orange" style={{ marginInlineEnd: 0 }} data-testid="retention-dry-run-quota">
                  {versionsText.retentionOverQuota}
                </Tag>
              )}
              {build.expired && (
                <Tag color="red" style={{ marginInlineEnd: 0 }}>
                  {versionsText.expired}
                </Tag>
              )}
              <Typography.Text type="secondary">
                {formatBytes(build.appSize)} · {formatVersionTime(build.createTime)}
              </Typography.Text>
            </Flex>
          </Flex>
        </List.Item>
      )}
    />
  );
}

/** 保留规则: the app's rule; 试运行 lists what it would remove now before 保存 (SPEC has none: issue 20). */
export function RetentionModal({ open, appId, onClose }: RetentionModalProps) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RetentionRule>();
  const [preview, setPreview] = useState<RetentionPreview | null>(null);
  const [busy, setBusy] = useState<'preview' | 'save' | null>(null);
  const rule = useQuery({
    queryKey: retentionKey(appId),
    queryFn: ({ signal }) => fetchRetention(appId, signal),
    enabled: open,
  });

  // The fields wait for the stored rule: a number typed before it arrived must not be overwritten by it.
  const filled = useFillOnOpen(open, rule.data, (stored) => form.setFieldsValue(stored));
  useEffect(() => {
    if (!open) setPreview(null);
  }, [open]);

  const dryRun = async (): Promise<void> => {
    const { keepLast, keepDays, quotaMb } = await form.validateFields();
    setBusy('preview');
    try {
      setPreview(await fetchRetentionPreview({ appId, keepLast, keepDays, quotaMb: quotaMb ?? 0 }));
    } catch {
      // The API client shows the failure.
    } finally {
      setBusy(null);
    }
  };

  const save = async (): Promise<void> => {
    const values = await form.validateFields();
    if (values.enabled && !preview) {
      toast.warning(versionsText.retentionRunFirst);
      return;
    }
    setBusy('save');
    try {
      queryClient.setQueryData(retentionKey(appId), await saveRetention({ appId, ...values }));
    } catch {
      return;
    } finally {
      setBusy(null);
    }
    toast.success(versionsText.retentionSaved);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={versionsText.retentionTitle}
      onCancel={onClose}
      destroyOnHidden
      data-testid="retention-modal"
      footer={
        <SaveFooter
          onCancel={onClose}
          onSave={() => void save()}
          saving={busy === 'save'}
          disabled={!filled}
          saveTestId="retention-save"
        >
          <Button
            onClick={() => void dryRun()}
            loading={busy === 'preview'}
            disabled={!filled}
            data-testid="retention-dry-run-button"
          >
            {versionsText.retentionDryRun}
          </Button>
        </SaveFooter>
      }
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{versionsText.retentionIntro}</Typography.Text>
        {rule.data?.isDefault && <Typography.Text type="secondary">{versionsText.retentionDefault}</Typography.Text>}
        {rule.isError && (
          <QueryFailed
            title={versionsText.retentionLoadFailed}
            onRetry={() => void rule.refetch()}
            testId="retention-load-failed"
          />
        )}
        <Form
          form={form}
          disabled={!filled}
          layout="inline"
          // The dry run answers for the numbers: a changed number asks for it again, turning the rule on does not.
          onValuesChange={(changed: Partial<RetentionRule>) => {
            if ('keepLast' in changed || 'keepDays' in changed || 'quotaMb' in changed) setPreview(null);
          }}
          style={{ rowGap: 8 }}
        >
          <RetentionRuleFields testIdPrefix="retention" />
        </Form>
        {preview && <DryRun preview={preview} />}
      </Flex>
    </Modal>
  );
}
