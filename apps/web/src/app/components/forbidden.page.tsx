import { Button, Result } from 'antd';
import { Link } from 'react-router-dom';
import { RoutePath } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';

export function ForbiddenPage() {
  return (
    <Result
      data-testid="forbidden-page"
      status="403"
      title={zh.forbidden.title}
      subTitle={zh.forbidden.content}
      extra={
        <Link to={RoutePath.app}>
          <Button type="primary">{zh.common.backHome}</Button>
        </Link>
      }
    />
  );
}
