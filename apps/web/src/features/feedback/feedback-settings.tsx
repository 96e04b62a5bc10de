import { useState } from 'react';
import { Button, Flex, Form, Modal, Select, Switch, Tag, Typography } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeedbackSettings } from '@release/contract';
import { fetchFeedbackSettings, saveFeedbackSettings } from '../../api/feedback.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchAssignableUsers } from '../../api/tasks.api.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { feedbackSettingsText as t } from './feedback.strings.ts';

type Values = Pick<FeedbackSettings, 'enabled' | 'assigneeIds'>;

/**
 * 测试反馈 on the app page, for its editors and admins (issue 20): whether testers may send feedback from the install
 * page and the console, and to whom the feedback bugs are assigned, with 设置 to change both.
 */
export function FeedbackSettingsLine({ appId }: { appId: number }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<Values>();
  const settings = useQuery({
    queryKey: queryKeys.feedbackSettings(appId),
    queryFn: ({ signal }) => fetchFeedbackSettings(appId, signal),
  });
  const users = useQuery({
    queryKey: queryKeys.assignableUsers,
    queryFn: ({ signal }) => fetchAssignableUsers(signal),
    staleTime: 60_000,
  });
  const save = useMutation({
    mutationFn: (values: Values) => saveFeedbackSettings({ appId, ...values }),
    onSuccess: (next) => {
      queryClient.setQueryData(queryKeys.feedbackSettings(appId), next);
      toast.success(zh.common.saveSuccess);
      setOpen(false);
    },
  });
  const current = settings.data;
  if (!current) return null;
  const nameOf = (id: number) => users.data?.find((u) => u.userId === id)?.name ?? `#${id}`;
  const assignees = current.assigneeIds.map(nameOf).join('、');

  return (
    <Flex align="center" gap={4} wrap data-testid="feedback-settings">
      <Typography.Text type="secondary">{t.label}：</Typography.Text>
      <Tag color={current.enabled ? 'green' : 'default'} style={{ marginInlineEnd: 0 }} data-testid="feedback-state">
        {current.enabled ? t.on : t.off}
      </Tag>
      {current.enabled && (
        <Typography.Text type="secondary" ellipsis style={{ maxWidth: 240 }} data-testid="feedback-assignees">
          {assignees ? t.assignedTo(assignees) : t.unassigned}
        </Typography.Text>
      )}
      <Button
        type="link"
        size="small"
        icon={<SettingOutlined />}
        style={{ paddingInline: 4 }}
        onClick={() => {
          form.setFieldsValue({ enabled: current.enabled, assigneeIds: current.assigneeIds });
          setOpen(true);
        }}
        data-testid="feedback-settings-edit"
      >
        {t.edit}
      </Button>
      <Modal
        open={open}
        title={t.title}
        okText={zh.common.save}
        cancelText={zh.common.cancel}
        confirmLoading={save.isPending}
        okButtonProps={{ 'data-testid': 'feedback-settings-save' }}
        onOk={() => void form.validateFields().then((values) => save.mutate(values))}
        onCancel={() => setOpen(false)}
        forceRender
      >
        <Form form={form} layout="vertical" data-testid="feedback-settings-form">
          <Form.Item name="enabled" label={t.enabled} valuePropName="checked" extra={t.enabledHint}>
            <Switch data-testid="feedback-enabled" />
          </Form.Item>
          <Form.Item name="assigneeIds" label={t.assignees} extra={t.assigneesHint}>
            <Select
              mode="multiple"
              allowClear
              placeholder={t.assigneesPlaceholder}
              optionFilterProp="label"
              loading={users.isPending}
              options={(users.data ?? []).map((u) => ({ value: u.userId, label: u.name }))}
              data-testid="feedback-assignees-select"
            />
          </Form.Item>
        </Form>
      </Modal>
    </Flex>
  );
}
