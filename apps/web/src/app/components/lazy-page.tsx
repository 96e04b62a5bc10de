import { lazy, Suspense, type ComponentType } from 'react';
import { Spin } from 'antd';
import { loadChunk } from './chunk-load.ts';
import { PageErrorBoundary } from './page-error-boundary.tsx';

/** Shown while a page's chunk loads. */
export function PageFallback() {
  return (
    <div className="page-fallback" data-testid="page-loading">
      <Spin size="large" />
    </div>
  );
}

/**
 * A route page loaded on first use: `lazyPage(() => import('./x.page.tsx'), 'XPage')`.
 * It suspends with a centered Spin, and a failed load shows 页面加载失败 (see PageErrorBoundary).
 */
export function lazyPage<K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  name: K,
): ComponentType {
  const Page = lazy(async () => {
    const page: ComponentType = (await loadChunk(load))[name];
    return { default: page };
  });
  function LazyPage() {
    return (
      <PageErrorBoundary>
        <Suspense fallback={<PageFallback />}>
          <Page />
        </Suspense>
      </PageErrorBoundary>
    );
  }
  LazyPage.displayName = `Lazy(${name})`;
  return LazyPage;
}
