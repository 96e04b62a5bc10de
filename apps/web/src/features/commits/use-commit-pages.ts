import { useCallback, useEffect, useRef, useState } from 'react';
import type { CommitLogItem } from '@release/contract';
import {
  fetchCommitMetadata,
  fetchCommitPage,
  type CommitQuery,
  type CommitSource,
} from '../../api/commit-logs.api.ts';

export interface CommitPagesState {
  items: CommitLogItem[];
  /** Metadata JSON strings by item id (POST /api/commit_log/metadata_list), for items that have some. */
  metadata: Record<string, string>;
  /** Where the next page starts (the server's nextCursor); null before the first page and after the last. */
  nextCursor: string | null;
  hasMore: boolean;
  isLoading: boolean;
  isError: boolean;
}

const initial: CommitPagesState = {
  items: [],
  metadata: {},
  nextCursor: null,
  hasMore: true,
  isLoading: false,
  isError: false,
};

export interface CommitPages extends CommitPagesState {
  loadMore: () => void;
  /** Asks again for the page that failed. */
  retry: () => void;
  /** Starts over from the newest page (after a save, SPEC §4). */
  reload: () => void;
}

/** Appends a page, dropping items already shown (an item edited between two pages can come back). */
export function mergePage(
  state: CommitPagesState,
  page: { list: CommitLogItem[]; hasMore: boolean; nextCursor: string | null },
  metadata: Record<string, string>,
  isFirst: boolean,
): CommitPagesState {
  const seen = new Set(isFirst ? [] : state.items.map((item) => item.id));
  const fresh = page.list.filter((item) => !seen.has(item.id));
  return {
    items: isFirst ? page.list : [...state.items, ...fresh],
    metadata: isFirst ? metadata : { ...state.metadata, ...metadata },
    // Without a cursor there is no way on: a server that says hasMore but gives none is taken at its cursor.
    nextCursor: page.hasMore ? page.nextCursor : null,
    hasMore: page.hasMore && page.nextCursor !== null && page.list.length > 0,
    isLoading: false,
    isError: false,
  };
}

/**
 * The infinite commit list: the newest page on every change of source, query or page size, then the
 * next one from the server's keyset cursor on demand. A change aborts the request in flight (SPEC §4);
 * an aborted answer is dropped silently.
 */
export function useCommitPages(
  source: CommitSource | null,
  query: CommitQuery,
  pageSize: number,
  refreshKey = 0,
): CommitPages {
  const [state, setState] = useState<CommitPagesState>(initial);
  const [reloads, setReloads] = useState(0);
  const controller = useRef<AbortController | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const key = JSON.stringify({ source, query, pageSize, reloads, refreshKey });
  const keyRef = useRef(key);
  keyRef.current = key;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key carries every input by value; the callback is rebuilt only when it changes
  const load = useCallback(
    async (cursor: string | null) => {
      if (!source) return;
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      const startedFor = keyRef.current;
      const isFirst = cursor === null;
      setState((s) => ({ ...s, isLoading: true, isError: false }));
      try {
        const page = await fetchCommitPage(source, query, { pageNo: 1, cursor, pageSize, signal: current.signal });
        const withMetadata = page.list.filter((item) => item.hasMetadata).map((item) => item.id);
        const metadata = await fetchCommitMetadata(withMetadata, current.signal).catch(() => ({}));
        if (current.signal.aborted || startedFor !== keyRef.current) return;
        setState((s) => mergePage(s, page, metadata, isFirst));
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
    void load(null);
    return () => controller.current?.abort();
  }, [load, hasSource]);

  const loadMore = useCallback(() => {
    const s = stateRef.current;
    if (s.isLoading || !s.hasMore || s.isError || s.nextCursor === null) return;
    void load(s.nextCursor);
  }, [load]);

  const retry = useCallback(() => {
    const s = stateRef.current;
    void load(s.items.length === 0 ? null : s.nextCursor);
  }, [load]);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { ...state, loadMore, retry, reload };
}
