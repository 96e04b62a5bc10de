import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Flex, Typography } from 'antd';
import { CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { zh } from '../../locales/zh-CN.ts';
import { isChunkLoadError } from './chunk-load.ts';

interface PageErrorBoundaryState {
  error: unknown;
  hasError: boolean;
}

/**
 * Around each lazy page: a chunk that fails to load (offline, or gone after a redeploy) shows
 * 页面加载失败 with 刷新页面 instead of a blank page. A reload fetches the new index and chunks.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, PageErrorBoundaryState> {
  override state: PageErrorBoundaryState = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): PageErrorBoundaryState {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Page failed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.hasError) return this.props.children;
    const isChunk = isChunkLoadError(this.state.error);
    // Laid out as antd's Result, without it: Result carries its 403/404/500 illustrations, and this boundary is in
    // the console's first load (bench/web-size.ts).
    return (
      <Flex vertical align="center" gap={12} className="page-failed" data-testid="page-load-failed">
        {isChunk ? (
          <ExclamationCircleFilled className="page-failed-icon warning" />
        ) : (
          <CloseCircleFilled className="page-failed-icon error" />
        )}
        <Typography.Title level={4} style={{ margin: 0 }}>
          {isChunk ? zh.pageLoad.failedTitle : zh.pageLoad.errorTitle}
        </Typography.Title>
        <Typography.Text type="secondary">
          {isChunk ? zh.pageLoad.failedContent : zh.pageLoad.errorContent}
        </Typography.Text>
        <Button type="primary" data-testid="page-reload" onClick={() => window.location.reload()}>
          {zh.pageLoad.reload}
        </Button>
      </Flex>
    );
  }
}
