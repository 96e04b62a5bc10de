import { Alert, Button, Flex, Progress, Typography } from 'antd';
import { RedoOutlined, StopOutlined } from '@ant-design/icons';
import { publishText } from './publish.strings.ts';
import type { PublishState } from './use-publish-job.ts';

interface PublishProgressProps {
  state: PublishState;
  onCancel: () => void;
  onRetry: () => void;
  /** 仍然发布 after a bundle id refusal. */
  onConfirm: () => void;
}

/** The upload's progress bar (transfer up to 80 %, 100 % once registered), 取消, and 重试 after a failure. */
export function PublishProgress({ state, onCancel, onRetry, onConfirm }: PublishProgressProps) {
  if (state.phase === 'idle') return null;
  const busy = state.phase === 'uploading' || state.phase === 'registering';
  const status =
    state.phase === 'failed' ? 'exception' : state.phase === 'done' ? 'success' : busy ? 'active' : 'normal';
  const retry = (
    <Button size="small" type="primary" icon={<RedoOutlined />} onClick={onRetry} data-testid="publish-retry">
      {publishText.retry}
    </Button>
  );
  return (
    <Flex vertical gap={8} style={{ marginBottom: 16 }}>
      <Flex align="center" gap={12}>
        <Progress
          percent={state.percent}
          status={status}
          style={{ flex: 1, margin: 0 }}
          data-testid="publish-progress"
          data-percent={state.percent}
          data-phase={state.phase}
        />
        {busy && (
          <Button size="small" icon={<StopOutlined />} onClick={onCancel} data-testid="publish-cancel">
            {publishText.cancel}
          </Button>
        )}
      </Flex>
      {busy && (
        <Typography.Text type="secondary" aria-live="polite">
          {state.phase === 'registering' ? publishText.registering : publishText.uploading}
        </Typography.Text>
      )}
      {state.phase === 'failed' && (
        <Alert
          type="error"
          showIcon
          title={publishText.failed}
          description={<span style={{ whiteSpace: 'pre-wrap' }}>{state.error}</span>}
          action={retry}
          data-testid="publish-error"
        />
      )}
      {state.phase === 'confirm' && (
        <Alert
          type="warning"
          showIcon
          title={publishText.mismatchTitle}
          description={
            <Flex vertical gap={4}>
              <span data-testid="publish-mismatch-message">{state.error}</span>
              <Typography.Text type="secondary">{publishText.mismatchHint}</Typography.Text>
              {/* Below the text rather than beside it: at 390 px a side button squeezes the message. */}
              <Button
                size="small"
                type="primary"
                danger
                onClick={onConfirm}
                style={{ alignSelf: 'flex-start' }}
                data-testid="publish-confirm-bundle-id"
              >
                {publishText.publishAnyway}
              </Button>
            </Flex>
          }
          data-testid="publish-mismatch"
        />
      )}
      {state.phase === 'canceled' && (
        <Alert type="warning" showIcon title={publishText.canceled} action={retry} data-testid="publish-canceled" />
      )}
    </Flex>
  );
}
