import { useEffect, useState } from 'react';
import { Button, Drawer, Flex, Input, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { CommitLogItem } from '@release/contract';
import { bindCommitVersions, commitKeys, fetchSimpleVersions, updateCommitLog } from '../../api/commit-logs.api.ts';
import { toast } from '../../app/feedback.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { useLightbox } from '../media/use-lightbox.tsx';
import { parseCommitMessage } from './commit-message.ts';
import { commitsText } from './commits.strings.ts';
import { SnapshotMedia } from './snapshot-media.tsx';
import { SnapshotVersions } from './snapshot-versions.tsx';
import { noBoundVersions, pickedVersionIds, picksOf, type VersionPicks } from './snapshot.ts';

const text = commitsText.snapshot;

interface SnapshotDrawerProps {
  /** The item being supplemented; null keeps the drawer closed. */
  item: CommitLogItem | null;
  onClose: () => void;
  onSaved: () => void;
}

/** 编辑/补充 (SPEC §2): screenshots and videos, a description and the bound package versions. */
export function SnapshotDrawer({ item, onClose, onSaved }: SnapshotDrawerProps) {
  const isMobile = useIsMobile();
  const lightbox = useLightbox();
  const [urls, setUrls] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const [picks, setPicks] = useState<VersionPicks>(picksOf(noBoundVersions));
  const [uploading, setUploading] = useState(0);
  const [isSaving, setIsSaving] = useState(false);
  const versions = useQuery({
    queryKey: commitKeys.simpleVersions(item?.appId ?? 0),
    queryFn: ({ signal }) => fetchSimpleVersions(item?.appId ?? 0, signal),
    enabled: item !== null,
  });

  useEffect(() => {
    if (!item) return;
    setUrls(item.fileUrls);
    setDescription(item.description);
    setPicks(picksOf(item.bindVersions));
    setUploading(0);
  }, [item]);

  const save = async (): Promise<void> => {
    if (!item || isSaving) return;
    setIsSaving(true);
    try {
      await updateCommitLog({ id: item.id, description, fileUrls: urls });
      const ids = pickedVersionIds(picks);
      const hadBindings = pickedVersionIds(picksOf(item.bindVersions)).length > 0;
      if (ids.length > 0 || hadBindings) await bindCommitVersions(item.id, ids);
    } catch {
      return; // Shown by the API client.
    } finally {
      setIsSaving(false);
    }
    toast.success(text.saved);
    onSaved();
  };

  return (
    <Drawer
      title={text.title}
      open={item !== null}
      onClose={onClose}
      size={isMobile ? '100%' : 520}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{text.cancel}</Button>
          <Button
            type="primary"
            loading={isSaving}
            disabled={uploading > 0}
            onClick={() => void save()}
            data-testid="snapshot-save"
          >
            {text.save}
          </Button>
        </Space>
      }
    >
      {item ? (
        <Flex vertical gap={16} data-testid="snapshot-drawer">
          <Typography.Text strong>
            {parseCommitMessage(item.commitMessage).subject || item.commitMessage}
          </Typography.Text>
          <Flex vertical gap={6}>
            <Typography.Text type="secondary">{text.media}</Typography.Text>
            <SnapshotMedia
              urls={urls}
              onChange={(update) => setUrls(update)}
              uploading={uploading}
              onUploadingChange={(delta) => setUploading((n) => n + delta)}
              onOpen={(index) => lightbox.open(urls, index)}
            />
          </Flex>
          <Flex vertical gap={6}>
            <Typography.Text type="secondary">{text.description}</Typography.Text>
            <Input.TextArea
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              autoSize={{ minRows: 2, maxRows: 10 }}
              maxLength={20_000}
              placeholder={text.descriptionPlaceholder}
              data-testid="snapshot-description"
            />
          </Flex>
          <Flex vertical gap={6}>
            <Typography.Text type="secondary">{text.versions}</Typography.Text>
            <SnapshotVersions versions={versions.data} picks={picks} onChange={setPicks} />
          </Flex>
        </Flex>
      ) : null}
      {lightbox.node}
    </Drawer>
  );
}
