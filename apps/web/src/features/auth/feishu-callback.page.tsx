import { Button } from 'antd';
import { Link } from 'react-router-dom';
import { RoutePath } from '@release/contract';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { StandalonePage } from '../../app/components/standalone-page.tsx';
import { zh } from '../../locales/zh-CN.ts';

/** /callback/feishu: the work-chat login callback; it needs the Feishu integration configured. */
export function FeishuCallbackPage() {
  return (
    <StandalonePage>
      <FeatureEmpty title={zh.feishuCallback.title} content={zh.feishuCallback.content}>
        <Link to={RoutePath.login}>
          <Button type="primary">{zh.feishuCallback.backToLogin}</Button>
        </Link>
      </FeatureEmpty>
    </StandalonePage>
  );
}
