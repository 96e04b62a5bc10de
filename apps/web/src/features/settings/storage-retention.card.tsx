import { useEffect } from 'react';
import { Button, Card, Flex, Form, InputNumber, Switch, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RETENTION_LIMITS, type RetentionRule } from '@release/contract';
import { fetchDefaultRetention, saveDefaultRetention } from '../../api/storage.api.ts';
import { toast } from '../../app/feedback.ts';
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
        <Form
          form={form}
          layout="inline"
          style={{ rowGap: 8 }}
          onFinish={(values) =>
            save.mutate({ ...values, enabled: Boolean(values.enabled), quotaMb: values.quotaMb ?? 0 })
          }
        >
          <Form.Item name="enabled" label={text.defaultEnabled} valuePropName="checked">
            <Switch data-testid="storage-retention-enabled" />
          </Form.Item>
          <Form.Item label={text.keepLast}>
            <Flex gap={6} align="center" wrap>
              <Form.Item name="keepLast" noStyle rules={[{ required: true }]}>
                <InputNumber
                  min={RETENTION_LIMITS.keepLast.min}
                  max={RETENTION_LIMITS.keepLast.max}
                  precision={0}
                  data-testid="storage-retention-keep-last"
                />
              </Form.Item>
              <span>{text.keepLastUnit}</span>
            </Flex>
          </Form.Item>
          <Form.Item label={text.keepDays}>
            <Flex gap={6} align="center" wrap>
              <Form.Item name="keepDays" noStyle rules={[{ required: true }]}>
                <InputNumber
                  min={RETENTION_LIMITS.keepDays.min}
                  max={RETENTION_LIMITS.keepDays.max}
                  precision={0}
                  data-testid="storage-retention-keep-days"
                />
              </Form.Item>
              <span>{text.keepDaysUnit}</span>
            </Flex>
          </Form.Item>
          <Form.Item label={text.quota} tooltip={text.quotaHint}>
            <Flex gap={6} align="center" wrap>
              <Form.Item name="quotaMb" noStyle>
                <InputNumber
                  min={RETENTION_LIMITS.quotaMb.min}
                  max={RETENTION_LIMITS.quotaMb.max}
                  precision={0}
                  data-testid="storage-retention-quota"
                />
              </Form.Item>
              <span>{text.quotaUnit}</span>
            </Flex>
          </Form.Item>
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
