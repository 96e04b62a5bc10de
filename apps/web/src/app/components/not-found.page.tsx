import { Button, Result } from 'antd';
import { Link } from 'react-router-dom';
import { RoutePath } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';

export function NotFoundPage() {
  return (
    <Result
      status="404"
      title={zh.common.notFoundTitle}
      subTitle={zh.common.notFoundContent}
      extra={
        <Link to={RoutePath.app}>
          <Button type="primary">{zh.common.backHome}</Button>
        </Link>
      }
    />
  );
}
