import { useCallback, useEffect, useRef, useState } from 'react';
import type { CommitLogItem } from '@release/contract';
import { fetchCommitMetadata, fetchCommitPage, type CommitQuery, type CommitSource } from '../../api/commit-logs.api.ts';

export interface CommitPagesState {
  items: CommitLogItem[];
  /** Metadata JSON strings by item id (POST /api/commit_log/metadata_list), for items that have some. */
  metadata: Record<string, string>;
  pageNo: number;
  hasMore: boolean;
  isLoading: boolean;
  isError: boolean;
}

const initial: CommitPagesState = { items: [], metadata: {}, pageNo: 0, hasMore: true, isLoading: false, isError: false };

export interface CommitPages extends CommitPagesState {
  loadMore: () => void;
  /** Asks again for the page that failed. */
  retry: () => void;
  /** Starts over from page 1 (after a save, SPEC §4). */
  reload: () => void;
}

/**
 * The infinite commit list: page 1 on every change of source, query or page size, the next page on
 * demand. A change aborts the request in flight (SPEC §4); an aborted answer is dropped silently.
 */
export function useCommitPages(source: CommitSource | null, query: CommitQuery, pageSize: number): CommitPages {
  const [state, setState] = useState<CommitPagesState>(initial);
  const [reloads, setReloads] = useState(0);
  const controller = useRef<AbortController | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const key = JSON.stringify({ source, query, pageSize, reloads });
  const keyRef = useRef(key);
  keyRef.current = key;

  const load = useCallback(
    async (pageNo: number) => {
      if (!source) return;
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      const startedFor = keyRef.current;
      setState((s) => ({ ...s, isLoading: true, isError: false }));
      try {
        const page = await fetchCommitPage(source, query, { pageNo, pageSize, signal: current.signal });
        const withMetadata = page.list.filter((item) => item.hasMetadata).map((item) => item.id);
        const metadata = await fetchCommitMetadata(withMetadata, current.signal).catch(() => ({}));
        if (current.signal.aborted || startedFor !== keyRef.current) return;
        setState((s) => ({
          items: pageNo === 1 ? page.list : [...s.items, ...page.list.filter((item) => !s.items.some((seen) => seen.id === item.id))],
          metadata: pageNo === 1 ? metadata : { ...s.metadata, ...metadata },
          pageNo,
          hasMore: page.hasMore,
          isLoading: false,
          isError: false,
        }));
      } catch {
        // Canceled requests are silent (SPEC §8); other failures were toasted by the client.
        if (current.signal.aborted || startedFor !== keyRef.current) return;
        setState((s) => ({ ...s, isLoading: false, isError: true }));
      }
    },
    // The key carries every input (source and query by value): the callback is rebuilt only when it changes.
    [key],
  );

  const hasSource = source !== null;
  useEffect(() => {
    setState({ ...initial, isLoading: hasSource });
    void load(1);
    return () => controller.current?.abort();
  }, [load, hasSource]);

  const loadMore = useCallback(() => {
    const s = stateRef.current;
    if (s.isLoading || !s.hasMore || s.isError) return;
    void load(s.pageNo + 1);
  }, [load]);

  const retry = useCallback(() => void load(stateRef.current.pageNo + 1), [load]);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { ...state, loadMore, retry, reload };
}
