import { Button, Flex, Input, Space, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import type { WorkflowRow } from '@release/contract';
import { copyText } from '../../app/clipboard.ts';
import { toast } from '../../app/feedback.ts';
import { workflowsText } from './workflows.strings.ts';

const text = workflowsText.webhook;

function CopyField({
  label,
  value,
  testId,
  secret = false,
}: {
  label: string;
  value: string;
  testId: string;
  secret?: boolean;
}) {
  const copy = async (): Promise<void> => {
    if (await copyText(value)) toast.success(text.copied);
    else toast.warning(text.copyFailed);
  };
  const field = secret ? (
    <Input.Password readOnly value={value} data-testid={testId} />
  ) : (
    <Input readOnly value={value} data-testid={testId} />
  );
  return (
    <Flex vertical gap={4}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Space.Compact style={{ width: '100%' }}>
        {field}
        <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid={`${testId}-copy`}>
          {text.copy}
        </Button>
      </Space.Compact>
    </Flex>
  );
}

/** Where a git host (or another system, through the push API) posts to this workflow, and its secret (editors only). */
export function WorkflowWebhook({
  row,
  kind,
}: {
  row: Pick<WorkflowRow, 'webhookUrl' | 'webhookSecret'>;
  kind: 'git' | 'push';
}) {
  if (!row.webhookUrl) return null;
  return (
    <Flex
      vertical
      gap={8}
      data-testid="workflow-webhook"
      style={{ padding: 12, background: '#fafafa', borderRadius: 8, marginBottom: 16 }}
    >
      <Typography.Text strong>{text.title}</Typography.Text>
      <CopyField label={text.url} value={row.webhookUrl} testId="workflow-webhook-url" />
      {row.webhookSecret ? (
        <CopyField label={text.secret} value={row.webhookSecret} testId="workflow-webhook-secret" secret />
      ) : null}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {kind === 'git' ? text.hint : text.pushHint}
      </Typography.Text>
    </Flex>
  );
}
