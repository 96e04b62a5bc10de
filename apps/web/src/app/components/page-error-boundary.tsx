import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Result } from 'antd';
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
    return (
      <Result
        status={isChunk ? 'warning' : 'error'}
        data-testid="page-load-failed"
        title={isChunk ? zh.pageLoad.failedTitle : zh.pageLoad.errorTitle}
        subTitle={isChunk ? zh.pageLoad.failedContent : zh.pageLoad.errorContent}
        extra={
          <Button type="primary" data-testid="page-reload" onClick={() => window.location.reload()}>
            {zh.pageLoad.reload}
          </Button>
        }
      />
    );
  }
}
