import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { loadChunk } from './chunk-load.ts';
import { PageErrorBoundary } from './page-error-boundary.tsx';

/** The props of a component type. */
type PropsOf<C> = C extends ComponentType<infer P> ? (P extends object ? P : never) : never;

/**
 * A part of a page loaded on first render, in its own chunk: `lazyPart(() => import('./x.tsx'), 'X')` takes X's
 * props. Until it arrives the fallback shows (nothing by default); a failed load shows 页面加载失败 in its place.
 * It keeps the console's first load small (bench/web-size.ts): views and dialogs most visits never open.
 */
export function lazyPart<
  M extends Record<K, ComponentType<never>>,
  K extends keyof M & string,
  P extends object = PropsOf<M[K]>,
>(load: () => Promise<M>, name: K, fallback: ReactNode = null): ComponentType<P> {
  const Part = lazy(async () => ({ default: (await loadChunk(load))[name] as ComponentType<P> }));
  function LazyPart(props: P) {
    return (
      <PageErrorBoundary>
        <Suspense fallback={fallback}>
          <Part {...props} />
        </Suspense>
      </PageErrorBoundary>
    );
  }
  LazyPart.displayName = `Lazy(${name})`;
  return LazyPart;
}

/**
 * A dialog loaded when it first opens (`open` true, or what `isOpen` says for dialogs opened by a value), then kept
 * mounted so it closes with its animation and opens again at once.
 */
export function lazyModal<
  M extends Record<K, ComponentType<never>>,
  K extends keyof M & string,
  P extends object = PropsOf<M[K]>,
>(
  load: () => Promise<M>,
  name: K,
  isOpen: (props: NoInfer<P>) => boolean = (props) => (props as { open?: unknown }).open === true,
): ComponentType<P> {
  const Part = lazyPart<M, K, P>(load, name);
  function LazyModal(props: P) {
    const open = isOpen(props);
    const [hasOpened, setHasOpened] = useState(open);
    if (open && !hasOpened) setHasOpened(true);
    return hasOpened || open ? <Part {...props} /> : null;
  }
  LazyModal.displayName = `LazyModal(${name})`;
  return LazyModal;
}
