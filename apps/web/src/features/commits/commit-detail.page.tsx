import { Button, Flex, Spin, Typography } from 'antd';
import { AppstoreOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import type { CommitLogItem } from '@release/contract';
import { isApiError } from '../../api/api-error.ts';
import { fetchAppList } from '../../api/apps.api.ts';
import {
  commitKeys,
  fetchCommitDetail,
  fetchCommitMetadata,
  fetchCommitPage,
  type CommitDetail,
} from '../../api/commit-logs.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { StandalonePage } from '../../app/components/standalone-page.tsx';
import { defaultAppFilter } from '../apps/app-filter.context.tsx';
import { useLightbox } from '../media/use-lightbox.tsx';
import { displayCategories } from './commit-filter.ts';
import { dateTimeText } from './commit-format.ts';
import { CommitItem } from './commit-item.tsx';
import { commitsText } from './commits.strings.ts';

const text = commitsText.detail;

interface FullCommit {
  item: CommitLogItem;
  metadata?: string;
}

/** The detail, completed with the list's fields (branch, tags, bound versions) from the item's own moment. */
async function fetchFullCommit(commitId: string, workflowId: number, signal: AbortSignal): Promise<FullCommit> {
  const detail: CommitDetail = await fetchCommitDetail(commitId, workflowId, signal, true);
  const page = await fetchCommitPage(
    { kind: 'workflows', workflowIds: String(workflowId) },
    { onlyCliff: false, startTime: detail.commitTime, endTime: detail.commitTime + 1 },
    { pageNo: 1, pageSize: 200, signal, silent: true },
  ).catch(() => null);
  const listed = page?.list.find((item) => item.id === detail.id);
  if (!listed) {
    const bare: CommitLogItem = {
      ...detail,
      appId: 0,
      workflowId,
      appName: '',
      tabName: '',
      repoPath: null,
      updateTime: detail.commitTime,
      branch: null,
      tagName: null,
      tagSummary: [],
      uploadBy: null,
      nativePackageType: null,
      cdnUrl: null,
      bindVersions: { ipa: [], apk: [], zip: [], hap: [] },
      packageVersion: null,
      filtered: false,
      hasMetadata: false,
    };
    return { item: bare };
  }
  const metadata: Record<string, string> = listed.hasMetadata
    ? await fetchCommitMetadata([listed.id], signal).catch((): Record<string, string> => ({}))
    : {};
  return { item: { ...listed, ...detail }, metadata: metadata[String(listed.id)] };
}

/** /commit?commitId&workflowId: one update item in full (message, media, bound versions). */
export function CommitDetailPage() {
  const [params] = useSearchParams();
  const commitId = params.get('commitId') ?? '';
  const workflowId = Number(params.get('workflowId'));
  const isValid = commitId !== '' && Number.isInteger(workflowId) && workflowId > 0;
  const lightbox = useLightbox();
  const commit = useQuery({
    queryKey: commitKeys.detail(commitId, workflowId),
    queryFn: ({ signal }) => fetchFullCommit(commitId, workflowId, signal),
    enabled: isValid,
    retry: false,
  });
  // The way back to the item's tab on its app page (the list carries the app id, the page is reached by path).
  const appId = commit.data?.item.appId ?? 0;
  const apps = useQuery({
    queryKey: queryKeys.appList(defaultAppFilter),
    queryFn: ({ signal }) => fetchAppList(defaultAppFilter, signal),
    enabled: appId > 0,
  });
  const appPath = apps.data?.apps.find((app) => app.appId === appId)?.path ?? null;

  let content;
  if (!isValid) content = <FeatureEmpty title={text.missing} content={text.missingContent} />;
  else if (commit.isPending) content = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (commit.isError) {
    // A short id that names several commits is told as such; anything else reads as not found.
    const ambiguous = isApiError(commit.error) && commit.error.code === 400;
    content = (
      <FeatureEmpty
        title={ambiguous ? commit.error.message : text.notFound}
        content={ambiguous ? text.ambiguousContent : text.notFoundContent}
      />
    );
  } else {
    const { item, metadata } = commit.data;
    content = (
      <div data-testid="commit-detail">
        <Flex align="center" justify="space-between" gap={8} wrap style={{ marginBottom: 12 }}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {text.title}
          </Typography.Title>
          {appPath ? (
            <Link
              to={`/home/app/${encodeURIComponent(appPath)}?workflowId=${workflowId}`}
              data-testid="commit-detail-app"
            >
              <Button size="small" icon={<AppstoreOutlined />}>
                {text.openApp}
              </Button>
            </Link>
          ) : null}
        </Flex>
        <CommitItem
          item={item}
          metadata={metadata}
          categories={displayCategories}
          showSource={item.appName !== ''}
          menu={null}
          onOpenMedia={lightbox.open}
          timeText={dateTimeText(item.commitTime)}
        />
        {lightbox.node}
      </div>
    );
  }
  return <StandalonePage>{content}</StandalonePage>;
}
