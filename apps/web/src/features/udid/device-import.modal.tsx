import { useState } from 'react';
import { Alert, Button, List, Modal, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import type { DeviceImportError, DeviceImportResult } from '@release/contract';
import { importDevices } from '../../api/devices.api.ts';
import { toast } from '../../app/feedback.ts';
import { udidText as t } from './udid.strings.ts';

type Outcome = { kind: 'done'; result: DeviceImportResult } | { kind: 'refused'; errors: DeviceImportError[] } | null;

/** 导入设备: one file; a refused file lists every bad line with its number, nothing is imported. */
export function DeviceImportModal({
  open,
  onClose,
  onImported,
}: {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const run = async (file: File): Promise<void> => {
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await importDevices(file);
      if (answer.ok) {
        setOutcome({ kind: 'done', result: answer.result });
        toast.success(t.importDone(answer.result.added));
        onImported();
      } else {
        setOutcome({ kind: 'refused', errors: answer.errors });
      }
    } catch {
      // Toasted by the API client.
    } finally {
      setBusy(false);
    }
  };

  const close = (): void => {
    setOutcome(null);
    onClose();
  };

  return (
    <Modal
      title={t.importTitle}
      open={open}
      onCancel={close}
      footer={
        <Button onClick={close} data-testid="device-import-close">
          {t.close}
        </Button>
      }
      width="min(600px, calc(100vw - 32px))"
    >
      <Typography.Paragraph type="secondary">{t.importHint}</Typography.Paragraph>
      <Upload
        accept=".txt,.csv,.deviceids,.plist"
        showUploadList={false}
        beforeUpload={(file) => {
          void run(file);
          return false;
        }}
      >
        <Button type="primary" icon={<UploadOutlined />} loading={busy} data-testid="device-import-file">
          {t.importPick}
        </Button>
      </Upload>
      {outcome?.kind === 'refused' ? (
        <Alert
          style={{ marginTop: 16 }}
          type="error"
          showIcon
          data-testid="device-import-errors"
          message={t.importErrors(outcome.errors.length)}
          description={
            <List
              size="small"
              dataSource={outcome.errors}
              renderItem={(error) => (
                <List.Item data-testid="device-import-error" style={{ paddingInline: 0 }}>
                  <Typography.Text strong>{t.line(error.line)}</Typography.Text>：{error.message}
                </List.Item>
              )}
            />
          }
        />
      ) : null}
      {outcome?.kind === 'done' ? (
        <Alert
          style={{ marginTop: 16 }}
          type="success"
          showIcon
          data-testid="device-import-done"
          message={t.importDone(outcome.result.added)}
          description={
            outcome.result.existing.length > 0
              ? `${t.importExisting(outcome.result.existing.length)}${outcome.result.existing.map((e) => `${t.line(e.line)} ${e.udid}`).join('，')}`
              : undefined
          }
        />
      ) : null}
    </Modal>
  );
}
