import { useState, type HTMLAttributes } from 'react';
import { Button, Card, Empty, Flex, Segmented, Table, Tooltip } from 'antd';
import { AlertOutlined, HistoryOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_TABLE_PAGE_SIZE,
  nativePackageTypes,
  platformShortNames,
  type AppDetail,
  type AppVersionRow,
  type NativePackageType,
} from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchAppVersions, pinVersion, type VersionListParams } from '../../api/versions.api.ts';
import { fetchInstallStats } from '../../api/install-stats.api.ts';
import { lazyModal } from '../../app/components/lazy-part.tsx';
import { toast } from '../../app/feedback.ts';
import { tablePagination } from '../../app/components/table-pagination.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { packageText } from './package-changes.strings.ts';
import { DownloadsChart } from '../install-stats/downloads-chart.tsx';
import { versionColumns } from './version-columns.tsx';
import { announceVersionRemoved } from './version-events.ts';
import { versionsText } from './versions.strings.ts';

type TypeFilter = NativePackageType | 'all';

// The version dialogs load when one first opens (the console's first load stays small: bench/web-size.ts).
const withVersion = (props: { version: unknown }) => props.version !== null;
const EditNoteModal = lazyModal(() => import('./edit-note.modal.tsx'), 'EditNoteModal', withVersion);
const ResignModal = lazyModal(() => import('./resign.modal.tsx'), 'ResignModal', withVersion);
const RemoveVersionModal = lazyModal(() => import('./remove-version.modal.tsx'), 'RemoveVersionModal', withVersion);
const RetentionModal = lazyModal(() => import('./retention.modal.tsx'), 'RetentionModal');
const PackageThresholdsModal = lazyModal(() => import('./package-thresholds.modal.tsx'), 'PackageThresholdsModal');
const VersionLinkModal = lazyModal(() => import('./version-link.modal.tsx'), 'VersionLinkModal', withVersion);
const FeedbackModal = lazyModal(() => import('../feedback/feedback.modal.tsx'), 'FeedbackModal', withVersion);
const VersionHoldersDrawer = lazyModal(
  () => import('../install-stats/version-holders.drawer.tsx'),
  'VersionHoldersDrawer',
  withVersion,
);
const VersionChangesDrawer = lazyModal(
  () => import('./version-changes.drawer.tsx'),
  'VersionChangesDrawer',
  withVersion,
);

const typeOptions: Array<{ value: TypeFilter; label: string }> = [
  { value: 'all', label: versionsText.filterAll },
  // Platform names, short, so the filters share a phone's width (390 px) instead of scrolling.
  ...nativePackageTypes.map((type) => ({ value: type, label: platformShortNames[type] })),
];

/** The 安装包 tab of the app page: the app's package versions, newest first, filtered by type. */
export function AppPackagesCard({ app }: { app: Pick<AppDetail, 'appId' | 'permit' | 'downloadUrl' | 'path'> }) {
  const queryClient = useQueryClient();
  const canEdit = app.permit !== 'view';
  const [type, setType] = useState<TypeFilter>('all');
  const [page, setPage] = useState({ pageNo: 1, pageSize: DEFAULT_TABLE_PAGE_SIZE });
  const [editing, setEditing] = useState<AppVersionRow | null>(null);
  const [resigning, setResigning] = useState<AppVersionRow | null>(null);
  const [linking, setLinking] = useState<AppVersionRow | null>(null);
  const [removing, setRemoving] = useState<AppVersionRow | null>(null);
  const [showingChanges, setShowingChanges] = useState<AppVersionRow | null>(null);
  const [feedbackOn, setFeedbackOn] = useState<AppVersionRow | null>(null);
  const [showingHolders, setShowingHolders] = useState<AppVersionRow | null>(null);
  const [retentionOpen, setRetentionOpen] = useState(false);
  const [thresholdsOpen, setThresholdsOpen] = useState(false);
  const params: VersionListParams = {
    appId: app.appId,
    ...page,
    ...(type === 'all' ? {} : { nativePackageType: type }),
  };
  const versions = useQuery({
    queryKey: queryKeys.versionList(params),
    queryFn: ({ signal }) => fetchAppVersions(params, signal),
    placeholderData: keepPreviousData,
    // Packages are published from another window; coming back shows them (and fresh download links).
    refetchOnWindowFocus: true,
  });
  // Downloads and installs per build and per day (install statistics), refreshed with the list.
  const stats = useQuery({
    queryKey: queryKeys.installStats(app.appId),
    queryFn: ({ signal }) => fetchInstallStats(app.appId, signal),
    refetchOnWindowFocus: true,
  });
  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: queryKeys.versions });
  const isMobile = useIsMobile();
  const togglePin = async (version: AppVersionRow): Promise<void> => {
    try {
      await pinVersion({ id: version.id, appId: app.appId, pinned: !version.pinned });
    } catch {
      return; // Shown by the API client.
    }
    toast.success(version.pinned ? versionsText.unpinDone : versionsText.pinDone);
    await refresh();
  };
  const columns = versionColumns({
    canEdit,
    compact: isMobile,
    now: Date.now(),
    onEditNote: setEditing,
    onResign: setResigning,
    onRemove: setRemoving,
    onShowLink: setLinking,
    onTogglePin: (version) => void togglePin(version),
    onShowChanges: setShowingChanges,
    onFeedback: setFeedbackOn,
    countsOf: (id) => stats.data?.versions.find((v) => v.versionId === id),
    onShowHolders: setShowingHolders,
  });

  return (
    <Card
      tabList={[{ key: 'packages', label: versionsText.tab }]}
      activeTabKey="packages"
      tabBarExtraContent={
        <Flex gap={4} align="center">
          {canEdit && (
            <Button
              type="text"
              icon={<HistoryOutlined />}
              onClick={() => setRetentionOpen(true)}
              aria-label={versionsText.retention}
              data-testid="versions-retention"
            >
              {isMobile ? null : versionsText.retention}
            </Button>
          )}
          {canEdit && (
            <Button
              type="text"
              icon={<AlertOutlined />}
              onClick={() => setThresholdsOpen(true)}
              aria-label={packageText.thresholds}
              data-testid="versions-package-thresholds"
            >
              {isMobile ? null : packageText.thresholds}
            </Button>
          )}
          <Tooltip title={versionsText.refresh}>
            <Button
              type="text"
              icon={<ReloadOutlined />}
              aria-label={versionsText.refresh}
              onClick={() => void refresh()}
              data-testid="versions-refresh"
            />
          </Tooltip>
        </Flex>
      }
      data-testid="app-packages"
    >
      <Flex vertical gap={12}>
        <DownloadsChart stats={stats.data} isError={stats.isError} onRetry={() => void stats.refetch()} />
        <div style={{ overflowX: 'auto' }}>
          <Segmented<TypeFilter>
            block={isMobile}
            className="versions-type-filter"
            size={isMobile ? 'small' : 'middle'}
            options={typeOptions}
            value={type}
            data-testid="versions-type-filter"
            onChange={(value) => {
              setType(value);
              setPage((p) => ({ ...p, pageNo: 1 }));
            }}
          />
        </div>
        <div data-testid="versions-table">
          <Table<AppVersionRow>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={versions.data?.rows ?? []}
            loading={versions.isFetching}
            scroll={isMobile ? undefined : { x: 940 }}
            onRow={(row) =>
              ({ 'data-testid': 'version-row', 'data-version-id': row.id }) as HTMLAttributes<HTMLElement>
            }
            locale={{
              emptyText: (
                <Empty
                  description={`${versionsText.emptyTitle}，${canEdit ? versionsText.emptyEditor : versionsText.emptyViewer}`}
                />
              ),
            }}
            pagination={tablePagination({
              total: versions.data?.total ?? 0,
              pageNo: page.pageNo,
              pageSize: page.pageSize,
              onChange: (pageNo, pageSize) =>
                setPage((p) => ({ pageNo: pageSize === p.pageSize ? pageNo : 1, pageSize })),
            })}
          />
        </div>
      </Flex>
      <EditNoteModal
        version={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void refresh();
        }}
      />
      <VersionLinkModal version={linking} downloadUrl={app.downloadUrl} onClose={() => setLinking(null)} />
      <VersionChangesDrawer version={showingChanges} onClose={() => setShowingChanges(null)} />
      <FeedbackModal version={feedbackOn} appPath={app.path} onClose={() => setFeedbackOn(null)} />
      <VersionHoldersDrawer version={showingHolders} onClose={() => setShowingHolders(null)} />
      <RemoveVersionModal
        version={removing}
        onClose={() => setRemoving(null)}
        onRemoved={() => {
          setRemoving(null);
          void refresh();
          announceVersionRemoved(app.appId);
        }}
      />
      <RetentionModal open={retentionOpen} appId={app.appId} onClose={() => setRetentionOpen(false)} />
      <PackageThresholdsModal open={thresholdsOpen} appId={app.appId} onClose={() => setThresholdsOpen(false)} />
      <ResignModal version={resigning} onClose={() => setResigning(null)} onDone={() => void refresh()} />
    </Card>
  );
}
