import { useState } from 'react';
import { Alert, Flex, Input, List, Modal, Tag, Typography } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchLarkDocFollows, saveLarkDocFollows, wikiKeys } from '../../api/wiki.api.ts';
import { useFillOnOpen } from '../../app/components/use-fill-on-open.ts';
import { toast } from '../../app/feedback.ts';
import { wikiText } from './wiki.strings.ts';

const text = wikiText.follows;

/** The Lark documents a wiki workflow follows: their changes arrive as the workflow's update items. */
export function LarkDocsModal({
  workflowId,
  open,
  onClose,
}: {
  workflowId: number;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const follows = useQuery({
    queryKey: wikiKeys.follows(workflowId),
    queryFn: ({ signal }) => fetchLarkDocFollows(workflowId, signal),
    enabled: open,
  });
  const [draft, setDraft] = useState('');
  // A refetch after a partly failed save must not wipe what the user typed.
  const filled = useFillOnOpen(open, follows.data, (docs) => setDraft(docs.map((f) => f.source).join('\n')));

  const save = useMutation({
    mutationFn: () =>
      saveLarkDocFollows(
        workflowId,
        draft
          .split('\n')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    onSuccess: () => {
      toast.success(text.saved);
      onClose();
    },
    // Some may have been followed before one failed: show what is followed now.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: wikiKeys.follows(workflowId) }),
  });

  return (
    <Modal
      title={text.title}
      open={open}
      onCancel={onClose}
      onOk={() => save.mutate()}
      okText={text.save}
      cancelText={text.cancel}
      confirmLoading={save.isPending}
      width={720}
      destroyOnHidden
      // Until the followed documents are read, there is nothing to edit: a save would send a list without them
      // (unfollowing them), and text typed meanwhile would be replaced when they arrive.
      okButtonProps={{ 'data-testid': 'lark-docs-save', disabled: !filled }}
    >
      <Flex vertical gap={12} data-testid="lark-docs-modal">
        <Typography.Text type="secondary">{text.intro}</Typography.Text>
        {follows.isError ? <Alert type="error" showIcon title={follows.error.message} /> : null}
        <List
          size="small"
          loading={follows.isPending}
          dataSource={follows.data ?? []}
          locale={{ emptyText: text.empty }}
          renderItem={(doc) => (
            <List.Item data-testid="lark-doc">
              <Flex gap={8} align="center" wrap style={{ minWidth: 0 }}>
                <FileTextOutlined />
                {doc.url ? (
                  <Typography.Link href={doc.url} target="_blank" rel="noreferrer">
                    {doc.title}
                  </Typography.Link>
                ) : (
                  <Typography.Text>{doc.title}</Typography.Text>
                )}
                {doc.spaceName ? <Typography.Text type="secondary">{doc.spaceName}</Typography.Text> : null}
                <Tag color={doc.subscribed ? 'green' : 'default'} style={{ marginInlineEnd: 0 }}>
                  {doc.subscribed ? text.subscribed : text.notSubscribed}
                </Tag>
              </Flex>
            </List.Item>
          )}
        />
        <Input.TextArea
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          disabled={!filled}
          placeholder={text.placeholder}
          autoSize={{ minRows: 3, maxRows: 10 }}
          data-testid="lark-docs-input"
        />
      </Flex>
    </Modal>
  );
}
