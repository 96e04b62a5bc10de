import { useState } from 'react';
import { Alert, Flex, List, Modal, Skeleton, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { AppVersionRow, VersionRemovalPreview } from '@release/contract';
import { failureMessage } from '../../api/api-error.ts';
import { fetchRemovalPreview, removeVersion } from '../../api/versions.api.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { formatBytes, versionTitle } from './version-format.ts';
import { versionsText } from './versions.strings.ts';

interface RemoveVersionModalProps {
  /** The build to remove; null keeps the modal closed. */
  version: AppVersionRow | null;
  onClose: () => void;
  onRemoved: () => void;
}

function Files({ preview }: { preview: VersionRemovalPreview }) {
  return (
    <List
      size="small"
      header={<Typography.Text strong>{versionsText.removeFiles}</Typography.Text>}
      dataSource={preview.files}
      data-testid="remove-version-files"
      renderItem={(file) => (
        <List.Item data-testid="remove-version-file" data-kept={file.keptBecause ? 'true' : 'false'}>
          <Flex justify="space-between" gap={8} style={{ width: '100%', minWidth: 0 }}>
            <Typography.Text
              ellipsis={{ tooltip: file.name }}
              delete={Boolean(file.keptBecause)}
              style={{ minWidth: 0 }}
            >
              <Tag style={{ marginInlineEnd: 6 }}>{versionsText.fileKinds[file.kind]}</Tag>
              {file.name}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ flexShrink: 0 }}>
              {file.keptBecause ? versionsText.removeKept(file.keptBecause) : formatBytes(file.size)}
            </Typography.Text>
          </Flex>
        </List.Item>
      )}
    />
  );
}

/** 删除: a confirm that lists the files that go (and those kept, with why), the space freed, then the removal. */
export function RemoveVersionModal({ version, onClose, onRemoved }: RemoveVersionModalProps) {
  const [isRemoving, setIsRemoving] = useState(false);
  const query = version ? { id: version.id, appId: version.appId } : null;
  const preview = useQuery({
    queryKey: ['versions', 'removal-preview', query],
    queryFn: ({ signal }) => fetchRemovalPreview(query ?? { id: 0, appId: 0 }, signal),
    enabled: query !== null,
    retry: false,
    gcTime: 0,
  });

  const remove = async (): Promise<void> => {
    // A second click while the first is on its way does nothing.
    if (!version || isRemoving) return;
    setIsRemoving(true);
    try {
      await removeVersion({ id: version.id, appId: version.appId });
    } catch {
      // The API client shows why (already removed, re-signing); the list is refreshed either way.
      onRemoved();
      return;
    } finally {
      setIsRemoving(false);
    }
    toast.success(versionsText.removeDone);
    onRemoved();
  };

  const data = preview.data;
  return (
    <Modal
      open={version !== null}
      title={versionsText.removeTitle}
      okText={versionsText.removeOk}
      okButtonProps={{ danger: true, disabled: !data, 'data-testid': 'remove-version-ok' }}
      cancelText={zh.common.cancel}
      confirmLoading={isRemoving}
      onOk={() => void remove()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="remove-version-modal"
    >
      {version && (
        <Flex vertical gap={12}>
          <Typography.Text strong>
            #{version.indexNo} · {versionTitle(version)} · {version.fileName}
          </Typography.Text>
          <Typography.Text type="secondary">{versionsText.removeIntro}</Typography.Text>
          {preview.isPending && (
            <div role="status" aria-label={versionsText.removeLoading}>
              <Skeleton active paragraph={{ rows: 2 }} title={false} />
            </div>
          )}
          {preview.isError && (
            <Alert
              type="error"
              showIcon
              message={versionsText.removeFailed}
              description={`${failureMessage(preview.error, '') ?? ''} ${versionsText.removeRefresh}`.trim()}
              data-testid="remove-version-error"
            />
          )}
          {data && (
            <>
              {data.copies.length > 0 && (
                <Typography.Text data-testid="remove-version-copies">
                  {versionsText.removeCopies(data.copies.length)}
                  {data.copies.map((c) => `#${c.indexNo} ${versionTitle(c)}`).join('、')}
                </Typography.Text>
              )}
              <Files preview={data} />
              <Typography.Text strong data-testid="remove-version-freed">
                {versionsText.removeFreed(formatBytes(data.freedBytes))}
              </Typography.Text>
              {data.items > 0 && (
                <Typography.Text type="secondary">{versionsText.removeItems(data.items)}</Typography.Text>
              )}
            </>
          )}
        </Flex>
      )}
    </Modal>
  );
}
