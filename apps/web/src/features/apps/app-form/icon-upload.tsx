import { useState } from 'react';
import { Avatar, Button, Flex, Typography, Upload } from 'antd';
import { PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { uploadAppFile } from '../../../api/apps.api.ts';
import { toast } from '../../../app/feedback.ts';
import { zh } from '../../../locales/zh-CN.ts';
import { APP_ICON_SIZE, ICON_MIME_TYPES } from '../app.constants.ts';

interface IconUploadProps {
  value?: string | null;
  onChange?: (url: string | null) => void;
  disabled?: boolean;
}

/** The app icon field: a jpeg or png checked here first, then POST /api/upload (type=app). */
export function IconUpload({ value = null, onChange, disabled = false }: IconUploadProps) {
  const [isUploading, setIsUploading] = useState(false);

  const upload = async (file: File): Promise<void> => {
    setIsUploading(true);
    try {
      onChange?.(await uploadAppFile(file));
    } catch {
      // Shown by the API client.
    } finally {
      setIsUploading(false);
    }
  };

  return (
    <Flex gap={12} align="center" wrap data-testid="app-icon-field">
      <Avatar
        shape="square"
        size={APP_ICON_SIZE}
        src={value ?? undefined}
        icon={value ? undefined : <PictureOutlined />}
        data-testid="app-icon-preview"
      />
      <Flex vertical gap={4} align="flex-start">
        <Flex gap={4}>
          <Upload
            accept={ICON_MIME_TYPES.join(',')}
            showUploadList={false}
            disabled={disabled || isUploading}
            beforeUpload={(file) => {
              if (!ICON_MIME_TYPES.includes(file.type)) {
                toast.warning(zh.appForm.iconTypeError);
                return Upload.LIST_IGNORE;
              }
              void upload(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={isUploading} disabled={disabled} data-testid="app-icon-upload">
              {zh.appForm.uploadIcon}
            </Button>
          </Upload>
          {value && !disabled ? (
            <Button type="link" danger onClick={() => onChange?.(null)} data-testid="app-icon-remove">
              {zh.appForm.removeIcon}
            </Button>
          ) : null}
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {zh.appForm.iconHint}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
