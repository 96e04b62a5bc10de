import { Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import type { CommitLogItem } from '@release/contract';
import { commitKeys, fetchCommitDetail, fetchCommitMetadata, fetchCommitPage, type CommitDetail } from '../../api/commit-logs.api.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { StandalonePage } from '../../app/components/standalone-page.tsx';
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
  const detail: CommitDetail = await fetchCommitDetail(commitId, workflowId, signal);
  const page = await fetchCommitPage(
    { kind: 'workflows', workflowIds: String(workflowId) },
    { onlyCliff: false, startTime: detail.commitTime, endTime: detail.commitTime + 1 },
    { pageNo: 1, pageSize: 200, signal, silent: true },
  ).catch(() => null);
  const listed = page?.list.find((item) => item.id === detail.id);
  if (!listed) {
    const bare: CommitLogItem = {
      ...detail, appId: 0, workflowId, appName: '', tabName: '', repoPath: null, updateTime: detail.commitTime, branch: null, tagName: null, tagSummary: [],
      uploadBy: null, nativePackageType: null, cdnUrl: null, bindVersions: { ipa: [], apk: [], zip: [] }, filtered: false, hasMetadata: false,
    };
    return { item: bare };
  }
  const metadata: Record<string, string> = listed.hasMetadata ? await fetchCommitMetadata([listed.id], signal).catch((): Record<string, string> => ({})) : {};
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

  let content;
  if (!isValid) content = <FeatureEmpty title={text.missing} content={text.missingContent} />;
  else if (commit.isPending) content = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (commit.isError) content = <FeatureEmpty title={text.notFound} content={text.notFoundContent} />;
  else {
    const { item, metadata } = commit.data;
    content = (
      <div data-testid="commit-detail">
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
