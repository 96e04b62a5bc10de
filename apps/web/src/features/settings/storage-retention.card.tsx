import { useEffect } from 'react';
import { Button, Card, Flex, Form, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RetentionRule } from '@release/contract';
import { fetchDefaultRetention, saveDefaultRetention } from '../../api/storage.api.ts';
import { QueryFailed } from '../../app/components/query-failed.tsx';
import { toast } from '../../app/feedback.ts';
import { RetentionRuleFields } from '../versions/retention-rule.fields.tsx';
import { storageText as text } from './storage.strings.ts';

const KEY = ['storage', 'retention-default'] as const;

/** 新应用的默认保留规则 (admins): the rule of apps without one of their own. */
export function StorageRetentionCard() {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RetentionRule>();
  const rule = useQuery({ queryKey: KEY, queryFn: ({ signal }) => fetchDefaultRetention(signal) });
  useEffect(() => {
    if (rule.data) form.setFieldsValue(rule.data);
  }, [rule.data, form]);
  const save = useMutation({
    mutationFn: saveDefaultRetention,
    onSuccess: (saved) => {
      queryClient.setQueryData(KEY, saved);
      toast.success(text.saved);
    },
  });
  return (
    <Card size="small" title={text.defaultTitle} loading={rule.isLoading} data-testid="storage-retention">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{text.defaultIntro}</Typography.Text>
        {rule.isError && (
          <QueryFailed
            title={text.defaultLoadFailed}
            onRetry={() => void rule.refetch()}
            testId="storage-retention-load-failed"
          />
        )}
        <Form
          form={form}
          disabled={!rule.data}
          layout="inline"
          style={{ rowGap: 8 }}
          onFinish={(values) =>
            save.mutate({ ...values, enabled: Boolean(values.enabled), quotaMb: values.quotaMb ?? 0 })
          }
        >
          <RetentionRuleFields testIdPrefix="storage-retention" />
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="storage-retention-save">
              {text.save}
            </Button>
          </Form.Item>
        </Form>
      </Flex>
    </Card>
  );
}
