import { Alert, Button, Drawer, Empty, Flex, List, Spin, Tag, Typography } from 'antd';
import { BranchesOutlined, CloudSyncOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { AppVersionRow, ChangeEntry, VersionChanges, WorkflowChanges } from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchVersionChanges } from '../../api/versions.api.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { CommitTypeTag } from '../commits/commit-item-parts.tsx';
import { parseCommitMessage, shortCommitId } from '../commits/commit-message.ts';
import { PackageChangesSection } from './package-changes.section.tsx';
import { changesText as text } from './version-changes.strings.ts';
import { versionTitle } from './version-format.ts';

function EntryRow({ entry, typed }: { entry: ChangeEntry; typed: boolean }) {
  const parsed = parseCommitMessage(entry.message);
  const short = shortCommitId(entry.commitId);
  return (
    <List.Item data-testid="change-entry" style={{ paddingInline: 0 }}>
      <Flex vertical gap={2} style={{ minWidth: 0, width: '100%' }}>
        <Flex gap={6} align="center" wrap>
          {typed && parsed.type && <CommitTypeTag type={parsed.type} />}
          <Typography.Text style={{ minWidth: 0 }} ellipsis={{ tooltip: entry.message }}>
            {parsed.type ? parsed.subject : entry.message}
          </Typography.Text>
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {[entry.author, short, dayjs(entry.commitTime).format('YYYY-MM-DD HH:mm')].filter(Boolean).join(' · ')}
        </Typography.Text>
      </Flex>
    </List.Item>
  );
}

function WorkflowSection({ flow }: { flow: WorkflowChanges }) {
  const commits = flow.basis === 'commits';
  const typed = flow.contentType === 'default';
  return (
    <section data-testid="changes-workflow" data-workflow-id={flow.workflowId}>
      <Flex gap={8} align="baseline" wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {flow.tabName}
        </Typography.Title>
        <Typography.Text type="secondary" data-testid="changes-count">
          {commits && typed ? text.commits(flow.total) : text.items(flow.total)}
        </Typography.Text>
        {!commits && typed && <Tag>{text.byTime}</Tag>}
      </Flex>
      {flow.behind > 0 && (
        <Alert type="warning" showIcon style={{ marginTop: 8 }} message={text.diverged(flow.behind)} />
      )}
      {!commits && typed && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0 0' }}>
          {text.byTimeHint}
        </Typography.Paragraph>
      )}
      {flow.total === 0 ? (
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {text.noCommits}
        </Typography.Paragraph>
      ) : (
        <List
          size="small"
          dataSource={flow.entries}
          rowKey={(e) => `${e.commitId}-${e.itemId ?? ''}`}
          renderItem={(entry) => <EntryRow entry={entry} typed={typed} />}
          footer={
            flow.total > flow.entries.length ? (
              <Typography.Text type="secondary">{text.more(flow.total - flow.entries.length)}</Typography.Text>
            ) : undefined
          }
        />
      )}
    </section>
  );
}

function Sources({ sources }: { sources: VersionChanges['sources'] }) {
  if (sources.length === 0) return null;
  return (
    <Flex vertical gap={4} data-testid="changes-sources">
      <Typography.Text strong>{text.sources}</Typography.Text>
      {sources.map((s) => (
        <Flex key={s.workflowId} gap={6} align="center" wrap data-testid="changes-source">
          <Typography.Text>{s.tabName}</Typography.Text>
          <Typography.Text code>{s.resolved ? (shortCommitId(s.commitId) ?? s.commitId) : s.commitId}</Typography.Text>
          {s.branch && (
            <Tag icon={<BranchesOutlined />} style={{ marginInlineEnd: 0 }}>
              {s.branch}
            </Tag>
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {text.origin[s.origin]}
          </Typography.Text>
          {!s.resolved && (
            <Tag icon={<CloudSyncOutlined />} color="processing" style={{ marginInlineEnd: 0 }}>
              {text.pending}
            </Tag>
          )}
        </Flex>
      ))}
    </Flex>
  );
}

function ChangesBody({ changes }: { changes: VersionChanges }) {
  const base = changes.base;
  const nothing = changes.workflows.length === 0 && changes.snapshots.length === 0;
  return (
    <Flex vertical gap={16}>
      <Typography.Text type="secondary" data-testid="changes-base">
        {base ? text.since(versionTitle(base)) : text.firstBuild}
      </Typography.Text>
      <Sources sources={changes.sources} />
      {changes.workflows.map((flow) => (
        <WorkflowSection key={flow.workflowId} flow={flow} />
      ))}
      {changes.snapshots.length > 0 && (
        <section data-testid="changes-snapshots">
          <Typography.Title level={5} style={{ margin: 0 }}>
            {text.snapshots}
          </Typography.Title>
          <List
            size="small"
            dataSource={changes.snapshots}
            rowKey={(e) => `${e.itemId}`}
            renderItem={(entry) => <EntryRow entry={{ ...entry, author: entry.tabName }} typed={false} />}
          />
        </section>
      )}
      {nothing && base && <Empty description={text.empty}>{text.emptyHint}</Empty>}
    </Flex>
  );
}

/** 变更 of a build: its source commits, and what changed since the build before it (issue 19). */
export function VersionChangesDrawer({ version, onClose }: { version: AppVersionRow | null; onClose: () => void }) {
  const isMobile = useIsMobile();
  const changes = useQuery({
    queryKey: queryKeys.versionChanges(version?.id ?? 0),
    queryFn: ({ signal }) => fetchVersionChanges(version?.id ?? 0, signal),
    enabled: version !== null,
  });
  return (
    <Drawer
      open={version !== null}
      onClose={onClose}
      width={isMobile ? '100%' : 560}
      title={version ? text.title(versionTitle(version)) : ''}
      destroyOnHidden
      data-testid="version-changes"
    >
      {changes.isPending ? (
        <Flex justify="center" style={{ padding: 32 }}>
          <Spin tip={text.loading}>
            <div style={{ width: 120, height: 40 }} />
          </Spin>
        </Flex>
      ) : changes.isError ? (
        <Alert
          type="error"
          showIcon
          message={text.failed}
          description={changes.error.message}
          action={<Button onClick={() => void changes.refetch()}>{text.retry}</Button>}
        />
      ) : (
        <ChangesBody changes={changes.data} />
      )}
      {version && <PackageChangesSection versionId={version.id} />}
    </Drawer>
  );
}
