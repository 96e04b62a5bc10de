import { useEffect, useState } from 'react';
import { Form, Input, Modal, Typography } from 'antd';
import type { AppVersionRow } from '@release/contract';
import { editVersionNote } from '../../api/versions.api.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { versionTitle } from './version-format.ts';
import { versionsText } from './versions.strings.ts';

const NOTE_AUTOSIZE = { minRows: 3, maxRows: 10 } as const;

interface EditNoteModalProps {
  /** The version whose note is edited; null keeps the modal closed. */
  version: AppVersionRow | null;
  onClose: () => void;
  onSaved: () => void;
}

/** 编辑备注: POST /api/app_version {id, appId, description}, then 保存成功. */
export function EditNoteModal({ version, onClose, onSaved }: EditNoteModalProps) {
  const [form] = Form.useForm<{ description: string }>();
  const [isSaving, setIsSaving] = useState(false);

  useEffect(() => {
    if (version) form.setFieldsValue({ description: version.description });
  }, [version, form]);

  const save = async (): Promise<void> => {
    if (!version || isSaving) return;
    const { description } = await form.validateFields();
    setIsSaving(true);
    try {
      await editVersionNote({ id: version.id, appId: version.appId, description });
    } catch {
      return; // The API client shows the failure.
    } finally {
      setIsSaving(false);
    }
    toast.success(zh.common.saveSuccess);
    onSaved();
  };

  return (
    <Modal
      open={version !== null}
      title={versionsText.noteTitle}
      okText={zh.common.save}
      cancelText={zh.common.cancel}
      confirmLoading={isSaving}
      onOk={() => void save()}
      onCancel={onClose}
      forceRender
    >
      {version && (
        <Typography.Paragraph type="secondary">
          #{version.indexNo} · {versionTitle(version)} · {version.fileName}
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical">
        <Form.Item name="description" noStyle>
          <Input.TextArea
            autoSize={NOTE_AUTOSIZE}
            maxLength={20_000}
            placeholder={versionsText.notePlaceholder}
            data-testid="version-note-input"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
