import { Button, Typography, Upload, type UploadFile, type UploadProps } from 'antd';
import { PaperClipOutlined } from '@ant-design/icons';
import { TASK_ATTACHMENTS_MAX, type TaskFile, type UploadFile as StoredFile } from '@release/contract';
import { failureMessage } from '../../api/api-error.ts';
import { finishMultipart, isTransientFailure, startMultipart } from '../../api/publish.api.ts';
import { issueAttachmentKey } from '../../api/tasks.api.ts';
import { toast } from '../../app/feedback.ts';
import { MultipartUpload, transferPercent } from '../publish/multipart-upload.ts';
import { tasksText as t } from './tasks.strings.ts';

/** An attachment in the form: antd's file entry, with our object key once uploaded. */
export type AttachmentItem = UploadFile<{ s3Key: string }>;

export function attachmentItems(files: TaskFile[]): AttachmentItem[] {
  return files.map((f) => ({
    uid: f.s3Key,
    name: f.fileName,
    status: 'done',
    url: f.url,
    response: { s3Key: f.s3Key },
  }));
}

/** The uploaded files as create_task / update_task take them; null while one is still uploading. */
export function storedFiles(items: AttachmentItem[] | undefined): StoredFile[] | null {
  const list = items ?? [];
  if (list.some((f) => f.status === 'uploading')) return null;
  return list
    .filter((f) => f.status === 'done' && f.response?.s3Key)
    .map((f) => ({ s3Key: f.response?.s3Key ?? '', fileName: f.name }));
}

/**
 * SPEC §7 upload flow for task attachments: get_signed_url names the object (lark_attachment/…), then start,
 * parts and finish; progress fills to 80 % while transferring and 100 % once finished (SPEC §9).
 */
const uploadAttachment: UploadProps['customRequest'] = (options) => {
  const file = options.file as File;
  const controller = new AbortController();
  void (async () => {
    try {
      const fileKey = await issueAttachmentKey(file.name, controller.signal);
      const upload = new MultipartUpload({
        blob: file,
        fileKey,
        api: { start: startMultipart, finish: finishMultipart },
        isTransient: isTransientFailure,
        onProgress: ({ loaded, total }) => options.onProgress?.({ percent: transferPercent(loaded, total) }),
      });
      await upload.run(controller.signal);
      options.onProgress?.({ percent: 100 });
      options.onSuccess?.({ s3Key: fileKey });
    } catch (error) {
      if (controller.signal.aborted) return;
      // The server's reason when it gave one (e.g. too many unfinished uploads), else the generic failure.
      const message = failureMessage(error, t.upload.failed);
      if (message) toast.error(message);
      options.onError?.(error instanceof Error ? error : new Error(t.upload.failed));
    }
  })();
  return { abort: () => controller.abort() };
};

interface TaskAttachmentsProps {
  fileList?: AttachmentItem[];
  onChange?: (files: AttachmentItem[]) => void;
  disabled?: boolean;
}

/**
 * The files of a selection that still fit under TASK_ATTACHMENTS_MAX (create_task / update_task refuse a 21st);
 * the rest are left out before any upload starts, and the user is told how many.
 */
function limitSelection(current: number): NonNullable<UploadProps['beforeUpload']> {
  return (file, batch) => {
    const room = Math.max(0, TASK_ATTACHMENTS_MAX - current);
    const index = batch.indexOf(file);
    if (index < room) return true;
    if (index === room) toast.warning(t.upload.tooMany(batch.length - room));
    return Upload.LIST_IGNORE;
  };
}

/** Attachments of a task or bug, each with its own progress; removing one only drops it from the record. */
export function TaskAttachments({ fileList, onChange, disabled }: TaskAttachmentsProps) {
  const files = fileList ?? [];
  const isFull = files.length >= TASK_ATTACHMENTS_MAX;
  return (
    <>
      <Upload<{ s3Key: string }>
        multiple
        data-testid="task-attachments"
        fileList={files}
        maxCount={TASK_ATTACHMENTS_MAX}
        disabled={disabled}
        openFileDialogOnClick={!isFull}
        beforeUpload={limitSelection(files.length)}
        customRequest={uploadAttachment}
        onChange={({ fileList: next }) => onChange?.(next.filter((f) => f.status !== 'error'))}
        className="task-attachments"
      >
        {disabled ? null : (
          <Button icon={<PaperClipOutlined />} disabled={isFull} data-testid="task-attachment-button">
            {t.upload.button}
          </Button>
        )}
      </Upload>
      {!disabled && isFull ? (
        <Typography.Text type="secondary" data-testid="task-attachments-full">
          {t.upload.full}
        </Typography.Text>
      ) : null}
    </>
  );
}
