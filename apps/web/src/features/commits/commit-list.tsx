import { Fragment, useEffect, useRef, type ReactNode } from 'react';
import { Button, Empty, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { CommitLogItem } from '@release/contract';
import { commitKeys, fetchCommitMetadata } from '../../api/commit-logs.api.ts';
import { useLightbox } from '../media/use-lightbox.tsx';
import type { DisplayCategory } from './commit-filter.ts';
import { groupByDay, groupByProject } from './commit-format.ts';
import { CommitItem } from './commit-item.tsx';
import { commitsText } from './commits.strings.ts';
import type { CommitPages } from './use-commit-pages.ts';

/** SPEC §4/§9: the next page loads within 20 px of the bottom. */
export const INFINITE_SCROLL_THRESHOLD_PX = 20;

export interface CommitItemsProps {
  items: CommitLogItem[];
  metadata: Record<string, string>;
  categories: readonly DisplayCategory[];
  showSource: boolean;
  groupByProject?: boolean;
  /** Day headers (今天 / 昨天 / …); the day drawer shows one day and needs none. */
  byDay?: boolean;
  renderMenu: (item: CommitLogItem) => ReactNode;
}

/** Items grouped by day (and by project when asked), with one lightbox for their media. */
export function CommitItems({
  items,
  metadata,
  categories,
  showSource,
  groupByProject: byProject = false,
  byDay = true,
  renderMenu,
}: CommitItemsProps) {
  const lightbox = useLightbox();
  const now = Date.now();
  const renderItems = (list: CommitLogItem[]) =>
    list.map((item) => (
      <CommitItem
        key={item.id}
        item={item}
        metadata={metadata[String(item.id)]}
        categories={categories}
        showSource={showSource}
        menu={renderMenu(item)}
        onOpenMedia={lightbox.open}
      />
    ));
  const renderDay = (list: CommitLogItem[]) =>
    byProject
      ? groupByProject(list).map((project) => (
          <Fragment key={project.key}>
            <div className="commit-project" data-testid="commit-project">
              {project.label}
            </div>
            {renderItems(project.items)}
          </Fragment>
        ))
      : renderItems(list);
  return (
    <>
      {byDay
        ? groupByDay(items, now).map((day) => (
            <section key={day.key} data-testid="commit-day" data-date={day.key}>
              <div className="commit-day">{day.label}</div>
              {renderDay(day.items)}
            </section>
          ))
        : renderDay(items)}
      {lightbox.node}
    </>
  );
}

/** CommitItems for a set fetched elsewhere (a calendar day): their metadata is asked for here. */
export function CommitItemsWithMetadata(props: Omit<CommitItemsProps, 'metadata'>) {
  const ids = props.items.filter((item) => item.hasMetadata).map((item) => item.id);
  const metadata = useQuery({
    queryKey: commitKeys.metadata(ids),
    queryFn: ({ signal }) => fetchCommitMetadata(ids, signal),
    enabled: ids.length > 0,
  });
  return <CommitItems {...props} metadata={metadata.data ?? {}} />;
}

interface CommitListProps extends Omit<CommitItemsProps, 'items' | 'metadata' | 'byDay'> {
  pages: CommitPages;
  /** The items to show (the trend page's project filter narrows pages.items on the client). */
  items: CommitLogItem[];
  maxHeight: string;
  /** Under 暂无更新记录: what to try next. */
  emptyHint?: string;
}

/** The infinite list: loads on scroll, says 没有更多内容了 at the end and 暂无更新记录 when empty. */
export function CommitList({ pages, items, maxHeight, emptyHint, ...rest }: CommitListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { loadMore, hasMore, isLoading, isError } = pages;

  const nearBottom = (): boolean => {
    const el = scrollRef.current;
    return el !== null && el.scrollHeight - el.scrollTop - el.clientHeight <= INFINITE_SCROLL_THRESHOLD_PX;
  };

  // A page that does not fill the box cannot be scrolled: ask for the next one right away.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new item count is what may leave the box unfilled; nearBottom reads the DOM
  useEffect(() => {
    if (!isLoading && hasMore && !isError && nearBottom()) loadMore();
  }, [items.length, isLoading, hasMore, isError, loadMore]);

  const isEmpty = !isLoading && !hasMore && items.length === 0;
  return (
    <div
      ref={scrollRef}
      className="commit-scroll"
      style={{ maxHeight }}
      data-testid="commit-list"
      onScroll={() => {
        if (nearBottom()) loadMore();
      }}
    >
      <CommitItems items={items} metadata={pages.metadata} {...rest} />
      {isLoading ? (
        <div className="commit-status">
          <Spin size="small" /> {commitsText.loading}
        </div>
      ) : null}
      {isError ? (
        <div className="commit-status">
          {commitsText.loadFailed}{' '}
          <Button size="small" type="link" onClick={pages.retry}>
            {commitsText.retry}
          </Button>
        </div>
      ) : null}
      {isEmpty ? (
        <div data-testid="commit-empty" style={{ padding: '32px 0' }}>
          <Empty
            description={
              <>
                <div>{commitsText.empty}</div>
                {emptyHint ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {emptyHint}
                  </Typography.Text>
                ) : null}
              </>
            }
          />
        </div>
      ) : null}
      {!isLoading && !hasMore && items.length > 0 ? (
        <div className="commit-status" data-testid="commit-end">
          {commitsText.end}
        </div>
      ) : null}
    </div>
  );
}
