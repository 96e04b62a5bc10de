import { useRef } from 'react';
import { Button, Flex, Upload } from 'antd';
import { CloseOutlined, UploadOutlined } from '@ant-design/icons';
import { failureMessage } from '../../api/api-error.ts';
import { uploadMediaFile } from '../../api/commit-logs.api.ts';
import { toast } from '../../app/feedback.ts';
import { MediaThumbs } from '../media/media-thumbs.tsx';
import { commitsText } from './commits.strings.ts';
import { isSnapshotMedia, pickOrder, SNAPSHOT_MEDIA_TYPES } from './snapshot.ts';

const text = commitsText.snapshot;

interface SnapshotMediaProps {
  urls: string[];
  onChange: (update: (urls: string[]) => string[]) => void;
  uploading: number;
  onUploadingChange: (delta: number) => void;
  onOpen: (index: number) => void;
}

/** Snapshot images and videos: POST /api/upload (type=media) per file, added in picking order; wrong types are refused with a warning. */
export function SnapshotMedia({ urls, onChange, uploading, onUploadingChange, onOpen }: SnapshotMediaProps) {
  // Several files picked at once are added in the order picked, not as their uploads finish.
  const order = useRef(pickOrder());
  return (
    <Flex vertical gap={8}>
      <div data-testid="snapshot-upload">
        <Upload
          multiple
          accept={SNAPSHOT_MEDIA_TYPES.join(',')}
          showUploadList={false}
          beforeUpload={(file) => {
            if (isSnapshotMedia(file.type)) return true;
            toast.warning(text.badType);
            return Upload.LIST_IGNORE;
          }}
          customRequest={({ file, onSuccess, onError }) => {
            if (!(file instanceof File)) return;
            onUploadingChange(1);
            const ticket = order.current.take();
            const add = (url: string | null) => {
              const ready = order.current.settle(ticket, url);
              if (ready.length) onChange((current) => [...current, ...ready]);
            };
            uploadMediaFile(file)
              .then((url) => {
                add(url);
                onSuccess?.(url);
              })
              .catch((error: unknown) => {
                add(null);
                // One toast: the server's reason (or the network's), 上传失败 only without one.
                const message = failureMessage(error, text.uploadError);
                if (message) toast.error(message);
                onError?.(new Error(message ?? text.uploadError));
              })
              .finally(() => onUploadingChange(-1));
          }}
        >
          <Button icon={<UploadOutlined />} loading={uploading > 0}>
            {text.upload}
          </Button>
        </Upload>
      </div>
      <span style={{ fontSize: 12, color: 'rgba(0,0,0,0.45)' }}>{text.uploadHint}</span>
      {urls.length > 0 ? (
        <Flex gap={8} wrap>
          {urls.map((url, index) => (
            <div key={`${url}-${index}`} style={{ position: 'relative' }} data-testid="snapshot-media-item">
              <MediaThumbs urls={[url]} onOpen={() => onOpen(index)} />
              <Button
                size="small"
                shape="circle"
                danger
                icon={<CloseOutlined />}
                aria-label={text.remove}
                style={{ position: 'absolute', top: -8, right: -8 }}
                onClick={() => onChange((current) => current.filter((_, i) => i !== index))}
                data-testid="snapshot-media-remove"
              />
            </div>
          ))}
        </Flex>
      ) : null}
    </Flex>
  );
}
