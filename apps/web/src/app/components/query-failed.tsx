import { Alert, Button } from 'antd';
import { zh } from '../../locales/zh-CN.ts';

/**
 * What a form shows when the values it edits could not be read: the reason and 重试. The form stays disabled meanwhile,
 * so that saving cannot overwrite stored values with empty fields.
 */
export function QueryFailed({ title, onRetry, testId }: { title: string; onRetry: () => void; testId?: string }) {
  return (
    <Alert
      type="error"
      showIcon
      title={title}
      data-testid={testId}
      action={
        <Button size="small" onClick={onRetry}>
          {zh.common.retry}
        </Button>
      }
    />
  );
}
