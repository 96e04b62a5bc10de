import type { ReactNode } from 'react';
import { Empty, Typography } from 'antd';

interface FeatureEmptyProps {
  title: string;
  content: string;
  children?: ReactNode;
  testId?: string;
}

/** An honest empty state: what the page is for and when it shows something. */
export function FeatureEmpty({ title, content, children, testId = 'empty-state' }: FeatureEmptyProps) {
  return (
    <div data-testid={testId} style={{ padding: '48px 16px', textAlign: 'center' }}>
      <Empty
        description={
          <>
            <Typography.Title level={5} style={{ marginBottom: 4 }}>
              {title}
            </Typography.Title>
            <Typography.Text type="secondary">{content}</Typography.Text>
          </>
        }
      >
        {children}
      </Empty>
    </div>
  );
}
