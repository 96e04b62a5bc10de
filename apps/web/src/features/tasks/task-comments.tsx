import { useState } from 'react';
import { Button, Empty, Flex, Form, Input, Popconfirm, Spin, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TaskComment } from '@release/contract';
import { createComment, deleteComment, fetchComments, updateComment } from '../../api/tasks.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { toast } from '../../app/feedback.ts';
import { useSession, useIsAdmin } from '../../app/session.store.ts';
import { dateTimeText } from '../commits/commit-format.ts';
import { tasksText as t } from './tasks.strings.ts';

/** SPEC §9 comment textarea: 3 to 10 rows. */
const COMMENT_ROWS = { minRows: 3, maxRows: 10 };

interface TaskCommentsProps {
  taskGuid: string;
  canComment: boolean;
  /** Comments that never reach Lark (a linked bug): said under the title, so nobody expects them in the table. */
  localOnly?: boolean;
  /** After a comment is added or removed (the table's comment count). */
  onChanged: () => void;
}

/** Comments inside the drawer: add, edit and delete one's own (admins any), each with its toast. */
export function TaskComments({ taskGuid, canComment, localOnly = false, onChanged }: TaskCommentsProps) {
  const queryClient = useQueryClient();
  const comments = useQuery({
    queryKey: queryKeys.taskComments(taskGuid),
    queryFn: ({ signal }) => fetchComments(taskGuid, signal),
  });
  const [form] = Form.useForm<{ content: string }>();
  const [isSending, setIsSending] = useState(false);
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.taskComments(taskGuid) });
    onChanged();
  };

  const send = async () => {
    let content: string;
    try {
      ({ content } = await form.validateFields());
    } catch {
      return;
    }
    setIsSending(true);
    try {
      await createComment(taskGuid, content.trim());
      form.resetFields();
      toast.success(t.comments.commented);
      await reload();
    } catch {
      // The API client has shown the reason.
    } finally {
      setIsSending(false);
    }
  };

  return (
    <Flex vertical gap={12} data-testid="task-comments">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t.comments.title}
      </Typography.Title>
      {localOnly ? (
        <Typography.Text type="secondary" data-testid="task-comments-local-only">
          {t.comments.localOnly}
        </Typography.Text>
      ) : null}
      {comments.isPending ? (
        <Spin />
      ) : (comments.data ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.comments.empty} />
      ) : (
        <Flex vertical gap={12} component="ul" className="task-comment-list">
          {(comments.data ?? []).map((comment) => (
            <CommentItem key={comment.id} comment={comment} canComment={canComment} onChanged={reload} />
          ))}
        </Flex>
      )}
      {canComment ? (
        <Form form={form} layout="vertical" requiredMark={false}>
          <Form.Item
            name="content"
            rules={[{ required: true, whitespace: true, message: t.comments.required }]}
            style={{ marginBottom: 8 }}
          >
            <Input.TextArea
              autoSize={COMMENT_ROWS}
              placeholder={t.comments.placeholder}
              maxLength={5000}
              data-testid="task-comment-input"
            />
          </Form.Item>
          <Flex justify="flex-end">
            <Button type="primary" loading={isSending} onClick={() => void send()} data-testid="task-comment-submit">
              {t.comments.submit}
            </Button>
          </Flex>
        </Form>
      ) : null}
    </Flex>
  );
}

function CommentItem({
  comment,
  canComment,
  onChanged,
}: {
  comment: TaskComment;
  canComment: boolean;
  onChanged: () => Promise<void>;
}) {
  const { userId } = useSession();
  const isAdmin = useIsAdmin();
  const [form] = Form.useForm<{ content: string }>();
  const [isEditing, setIsEditing] = useState(false);
  const [isSaving, setIsSaving] = useState(false);
  const isMine = canComment && (isAdmin || comment.creatorId === userId);

  const save = async () => {
    let content: string;
    try {
      ({ content } = await form.validateFields());
    } catch {
      return;
    }
    setIsSaving(true);
    try {
      await updateComment(comment.id, content.trim());
      toast.success(t.comments.modified);
      setIsEditing(false);
      await onChanged();
    } catch {
      // Shown by the API client.
    } finally {
      setIsSaving(false);
    }
  };

  const remove = async () => {
    try {
      await deleteComment(comment.id);
      toast.success(t.comments.deleted);
      await onChanged();
    } catch {
      // Shown by the API client.
    }
  };

  return (
    <li className="task-comment" data-testid="task-comment">
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Typography.Text strong>{comment.creatorName ?? '-'}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {dateTimeText(comment.updatedAt)}
          {comment.updatedAt !== comment.createdAt ? ` · ${t.comments.edited}` : ''}
        </Typography.Text>
      </Flex>
      {isEditing ? (
        <Form form={form} initialValues={{ content: comment.content }} style={{ marginTop: 8 }}>
          <Form.Item
            name="content"
            rules={[{ required: true, whitespace: true, message: t.comments.required }]}
            style={{ marginBottom: 8 }}
          >
            <Input.TextArea autoSize={COMMENT_ROWS} maxLength={5000} data-testid="task-comment-edit-input" />
          </Form.Item>
          <Flex gap={8} justify="flex-end">
            <Button size="small" onClick={() => setIsEditing(false)}>
              {t.comments.cancel}
            </Button>
            <Button
              size="small"
              type="primary"
              loading={isSaving}
              onClick={() => void save()}
              data-testid="task-comment-save"
            >
              {t.comments.save}
            </Button>
          </Flex>
        </Form>
      ) : (
        <Typography.Paragraph
          style={{ margin: '4px 0 0', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          data-testid="task-comment-content"
        >
          {comment.content}
        </Typography.Paragraph>
      )}
      {isMine && !isEditing ? (
        <Flex gap={4}>
          <Button
            type="link"
            size="small"
            style={{ padding: 0 }}
            onClick={() => setIsEditing(true)}
            data-testid="task-comment-edit"
          >
            {t.comments.edit}
          </Button>
          <Popconfirm
            title={t.comments.deleteConfirm}
            onConfirm={() => remove()}
            okText={t.comments.delete}
            cancelText={t.comments.cancel}
          >
            <Button
              type="link"
              size="small"
              danger
              style={{ padding: 0, marginLeft: 8 }}
              data-testid="task-comment-delete"
            >
              {t.comments.delete}
            </Button>
          </Popconfirm>
        </Flex>
      ) : null}
    </li>
  );
}
