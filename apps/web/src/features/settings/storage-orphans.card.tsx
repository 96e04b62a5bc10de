import { useState } from 'react';
import { Alert, Button, Card, Flex, List, Modal, Progress, Typography } from 'antd';
import { DeleteOutlined, SearchOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import type { OrphanCheck } from '@release/contract';
import { checkOrphans, removeOrphans } from '../../api/storage.api.ts';
import { toast } from '../../app/feedback.ts';
import { formatBytes } from '../versions/version-format.ts';
import { storageText as text } from './storage.strings.ts';

/** 孤立文件 (admins): a check that reads the whole store, and removal of what it found after a confirm. */
export function StorageOrphansCard({ onRemoved }: { onRemoved: () => void }) {
  const [found, setFound] = useState<OrphanCheck | null>(null);
  const [confirming, setConfirming] = useState(false);
  const check = useMutation({ mutationFn: checkOrphans, onSuccess: setFound });
  const listedBytes = found?.files.reduce((sum, f) => sum + f.size, 0) ?? 0;
  const remove = useMutation({
    mutationFn: () => removeOrphans(found?.files.map((f) => f.key) ?? []),
    onSuccess: (done) => {
      setConfirming(false);
      toast.success(text.orphansRemoved(done.removed, formatBytes(done.bytes)));
      onRemoved();
      check.mutate();
    },
  });

  return (
    <Card
      size="small"
      title={text.orphansTitle}
      data-testid="storage-orphans"
      extra={
        <Button
          icon={<SearchOutlined />}
          loading={check.isPending}
          onClick={() => check.mutate()}
          data-testid="storage-orphans-check"
        >
          {text.orphansCheck}
        </Button>
      }
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{text.orphansIntro}</Typography.Text>
        {check.isPending && (
          <Flex vertical gap={4} data-testid="storage-orphans-progress">
            <Typography.Text>{text.orphansChecking}</Typography.Text>
            <Progress percent={100} status="active" showInfo={false} />
          </Flex>
        )}
        {check.isError && !check.isPending && (
          <Alert type="error" showIcon title={check.error.message} data-testid="storage-orphans-error" />
        )}
        {found && !check.isPending && found.count === 0 && (
          <Alert type="success" showIcon title={text.orphansNone(found.scanned)} data-testid="storage-orphans-result" />
        )}
        {found && !check.isPending && found.count > 0 && (
          <>
            <Alert
              type="warning"
              showIcon
              data-testid="storage-orphans-result"
              title={text.orphansFound(found.count, formatBytes(found.bytes), found.scanned)}
              description={found.count > found.files.length ? text.orphansListed(found.files.length) : undefined}
              action={
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => setConfirming(true)}
                  data-testid="storage-orphans-remove"
                >
                  {text.orphansRemove}
                </Button>
              }
            />
            <List
              size="small"
              bordered
              style={{ maxHeight: 320, overflowY: 'auto' }}
              dataSource={found.files}
              renderItem={(file) => (
                <List.Item data-testid="storage-orphan" data-key={file.key}>
                  <Typography.Text style={{ minWidth: 0, wordBreak: 'break-all' }}>{file.key}</Typography.Text>
                  <Typography.Text type="secondary" style={{ flexShrink: 0, marginInlineStart: 8 }}>
                    {formatBytes(file.size)}
                  </Typography.Text>
                </List.Item>
              )}
            />
          </>
        )}
      </Flex>
      <Modal
        open={confirming}
        title={text.orphansConfirmTitle}
        okText={text.orphansConfirmOk}
        okButtonProps={{ danger: true, loading: remove.isPending, 'data-testid': 'storage-orphans-confirm' }}
        onOk={() => remove.mutate()}
        onCancel={() => setConfirming(false)}
        destroyOnHidden
      >
        {found && text.orphansConfirm(found.files.length, formatBytes(listedBytes))}
      </Modal>
    </Card>
  );
}
