import { Typography } from 'antd';
import { zh } from '../../locales/zh-CN.ts';
import { cliUsageSample } from './token-status.ts';

/** How the CLI uses a token: a plain sample with this site's origin, no links. */
export function TokenUsage() {
  return (
    <div data-testid="token-usage">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {zh.apiTokens.usageTitle}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {zh.apiTokens.usageHint}
      </Typography.Paragraph>
      <pre className="token-code">{cliUsageSample(window.location.origin)}</pre>
    </div>
  );
}
