import { useCallback, useState, type ReactNode } from 'react';
import { MediaLightbox } from './media-lightbox.tsx';

/** One lightbox for a list: `open(urls, index)` shows it, the node renders it. */
export function useLightbox(): { open: (urls: string[], index: number) => void; node: ReactNode } {
  const [state, setState] = useState<{ urls: string[]; index: number } | null>(null);
  const open = useCallback((urls: string[], index: number) => setState({ urls, index }), []);
  const node = state ? (
    <MediaLightbox
      urls={state.urls}
      index={state.index}
      onIndexChange={(index) => setState((s) => (s ? { ...s, index } : s))}
      onClose={() => setState(null)}
    />
  ) : null;
  return { open, node };
}
