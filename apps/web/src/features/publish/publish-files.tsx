import { Button, Upload, type UploadFile } from 'antd';
import { packageFileExtensions, UPLOAD_FILE_NAME_MAX } from '@release/contract';
import { InboxOutlined, PaperClipOutlined } from '@ant-design/icons';
import { toast } from '../../app/feedback.ts';
import { keptPackages } from './package-selection.ts';
import { publishText } from './publish.strings.ts';

/** SPEC §3/§9 package files, from the kind table: ipa (iOS), apk and aab (Android), zip (web, mac), html/htm (web). */
export const PACKAGE_EXTENSIONS = packageFileExtensions;
export const MAX_ATTACHMENTS = 20;

export function isPackageFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return PACKAGE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** The File behind an antd upload entry (files are kept in the form, never sent by antd). */
export function fileOf(entry: UploadFile | undefined): File | null {
  return entry?.originFileObj ?? null;
}

interface FileListControl {
  value?: UploadFile[];
  onChange?: (list: UploadFile[]) => void;
  disabled?: boolean;
}

/** get_signed_url refuses longer names (contract `UPLOAD_FILE_NAME_MAX`): say so on pick, not after 发布. */
export function isFileNameTooLong(name: string): boolean {
  return name.trim().length > UPLOAD_FILE_NAME_MAX;
}

/** Keeps a picked file local (antd never sends it), unless its name is longer than the server takes. */
function keepLocal(file: File): false | typeof Upload.LIST_IGNORE {
  if (isFileNameTooLong(file.name)) {
    toast.warning(publishText.nameTooLong(UPLOAD_FILE_NAME_MAX));
    return Upload.LIST_IGNORE;
  }
  return false;
}

/** Picked files are kept, not sent by antd: list them as ready rather than as pending uploads. */
function asPicked(entry: UploadFile): UploadFile {
  return entry.status ? entry : { ...entry, status: 'done' };
}

/** The package: one file, or the modules of a HarmonyOS version, dragged in or picked (Form control: value is the upload list). */
export function PackageDropzone({ value = [], onChange, disabled }: FileListControl) {
  return (
    <div data-testid="publish-dropzone">
      <Upload.Dragger
        accept={PACKAGE_EXTENSIONS.join(',')}
        multiple
        disabled={disabled}
        fileList={value}
        beforeUpload={(file) => {
          if (!isPackageFileName(file.name)) {
            toast.warning(publishText.badType(file.name));
            return Upload.LIST_IGNORE;
          }
          if (file.size === 0) {
            toast.warning(publishText.emptyFile);
            return Upload.LIST_IGNORE;
          }
          return keepLocal(file);
        }}
        onChange={({ fileList }) => onChange?.(keptPackages(fileList).map(asPicked))}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{publishText.dropTitle}</p>
        <p className="ant-upload-hint">{publishText.dropHint}</p>
      </Upload.Dragger>
    </div>
  );
}

/** Optional attachments, uploaded with the package (up to 20). */
export function AttachmentPicker({ value = [], onChange, disabled }: FileListControl) {
  return (
    <div data-testid="publish-attachments">
      <Upload
        multiple
        disabled={disabled}
        fileList={value}
        beforeUpload={keepLocal}
        onChange={({ fileList }) => {
          if (fileList.length > MAX_ATTACHMENTS) toast.warning(publishText.tooManyAttachments);
          onChange?.(
            fileList
              .filter((f) => (f.size ?? 1) > 0)
              .slice(0, MAX_ATTACHMENTS)
              .map(asPicked),
          );
        }}
      >
        <Button icon={<PaperClipOutlined />} disabled={disabled}>
          {publishText.addAttachment}
        </Button>
      </Upload>
    </div>
  );
}
