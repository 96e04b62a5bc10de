import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CommitLogItem } from '@release/contract';
import { commitKeys, type CommitSource } from '../../api/commit-logs.api.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { CommitCalendar } from '../calendar/commit-calendar.tsx';
import { SendLogsModal } from '../messaging/send-logs.modal.tsx';
import { SendMessageModal } from '../messaging/send-message.modal.tsx';
import { useWorkflowUsers } from '../workflows/use-workflows.ts';
import { defaultCommitFilter, inProject, projectOptions, toCommitQuery, type CommitFilter } from './commit-filter.ts';
import { commitPageSize, sameCommitsTogether } from './commit-format.ts';
import { CommitItemMenu } from './commit-item-menu.tsx';
import { CommitItemsWithMetadata, CommitList } from './commit-list.tsx';
import { FilterBar } from './filter-bar.tsx';
import { SnapshotDrawer } from './snapshot-drawer.tsx';
import { useCommitPages } from './use-commit-pages.ts';

export type CommitView = 'list' | 'calendar';

interface CommitBrowserProps {
  source: CommitSource;
  /** workflow: one tab; summary: the 工作流汇总 tab; trend: one committer across apps. */
  mode: 'workflow' | 'summary' | 'trend';
  view: CommitView;
  canEdit: boolean;
  /** The tab's branches (a branch filter shows when there are several). */
  branches?: string[];
  /** A new value starts the list again (after a repository sync). */
  refreshKey?: number;
  /** What an empty list suggests doing (sync the repository, widen the time filter...). */
  emptyHint?: string;
  /** The tab's group robot address (editors see it): pushes go through its service. */
  robotUrl?: string | null;
  /** The app's workflow names in tab order, for the calendar's colours and legend. */
  workflowOrder?: readonly string[];
}

/** The filter bar with the infinite list or the calendar of one source, and the snapshot drawer. */
export function CommitBrowser({
  source,
  mode,
  view,
  canEdit,
  branches = [],
  refreshKey = 0,
  emptyHint,
  robotUrl = null,
  workflowOrder,
}: CommitBrowserProps) {
  const queryClient = useQueryClient();
  const isMobile = useIsMobile();
  const [filter, setFilter] = useState<CommitFilter>(() => defaultCommitFilter());
  const [editing, setEditing] = useState<CommitLogItem | null>(null);
  const [sending, setSending] = useState<CommitLogItem | null>(null);
  const [batchStart, setBatchStart] = useState<CommitLogItem | null>(null);
  const users = useWorkflowUsers(mode !== 'trend');
  const branch = filter.branch && branches.includes(filter.branch) ? filter.branch : null;
  const query = useMemo(() => toCommitQuery({ ...filter, branch }), [filter, branch]);
  const pageSize = useMemo(() => commitPageSize(window.screen.height), []);
  const pages = useCommitPages(view === 'list' ? source : null, query, pageSize, refreshKey);
  // The list, the calendar's counts and a calendar day keep the same items: the project filter's (on the client, the
  // server answers every app the viewer may see); list and day put the copies of a commit together (a no-op on one
  // workflow's tab, where a commit comes once).
  const keep = useMemo(() => inProject(filter.project), [filter.project]);
  const present = useCallback((list: CommitLogItem[]) => sameCommitsTogether(list.filter(keep)), [keep]);
  const items = useMemo(() => present(pages.items), [present, pages.items]);
  // The projects offered are those of what is shown: the list's pages, or the calendar's month or year.
  const [windowApps, setWindowApps] = useState<string[]>([]);
  const projects = useMemo(
    () => projectOptions(view === 'list' ? pages.items : windowApps.map((appName) => ({ appName })), filter.project),
    [view, pages.items, windowApps, filter.project],
  );
  const calendarQuery = useMemo(
    () => ({ onlyCliff: query.onlyCliff, remark: query.remark, branch: query.branch }),
    [query],
  );

  const showSource = mode !== 'workflow';
  const renderMenu = (item: CommitLogItem) =>
    canEdit && mode !== 'summary' ? (
      <CommitItemMenu
        onEdit={() => setEditing(item)}
        onSend={() => setSending(item)}
        onBatchSend={() => setBatchStart(item)}
      />
    ) : null;
  const shared = { categories: filter.categories, showSource, renderMenu };

  return (
    <>
      <FilterBar
        filter={filter}
        onChange={setFilter}
        mode={mode === 'trend' ? 'trend' : 'workflow'}
        committers={users.data ?? []}
        projects={projects}
        branches={branches}
        showTime={view === 'list'}
      />
      {view === 'list' ? (
        <CommitList
          pages={pages}
          items={items}
          emptyHint={emptyHint}
          groupByProject={mode === 'trend' && filter.groupByProject}
          maxHeight={isMobile ? 'calc(100vh - 140px)' : 'max(420px, calc(100vh - 240px))'}
          {...shared}
        />
      ) : (
        <CommitCalendar
          source={source}
          query={calendarQuery}
          countPer={mode === 'trend' ? 'app' : 'workflow'}
          keyOrder={workflowOrder}
          project={filter.project}
          onWindowApps={setWindowApps}
          renderDayItems={(dayItems) => (
            <CommitItemsWithMetadata
              items={present(dayItems)}
              byDay={false}
              groupByProject={mode === 'trend' && filter.groupByProject}
              {...shared}
            />
          )}
        />
      )}
      <SendMessageModal item={sending} workflowRobotUrl={robotUrl} onClose={() => setSending(null)} />
      <SendLogsModal start={batchStart} workflowRobotUrl={robotUrl} onClose={() => setBatchStart(null)} />
      <SnapshotDrawer
        item={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          pages.reload();
          void queryClient.invalidateQueries({ queryKey: commitKeys.all });
        }}
      />
    </>
  );
}
