import { useEffect, useState } from 'react';
import { Alert, Button, Drawer, Empty, Flex, List, Segmented, Spin, Tag, Typography } from 'antd';
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

type Base = 'previous' | 'last_install';

function baseLine(changes: VersionChanges): string {
  const base = changes.base;
  if (!base) return text.firstBuild;
  if (changes.baseKind === 'last_install') return text.sinceInstalled(versionTitle(base));
  return changes.baseKind === 'chosen' ? text.sinceChosen(versionTitle(base)) : text.since(versionTitle(base));
}

function ChangesBody({ changes, onBase }: { changes: VersionChanges; onBase: (base: Base) => void }) {
  const base = changes.base;
  const nothing = changes.workflows.length === 0 && changes.snapshots.length === 0;
  // The switch when the caller last took an older build other than the previous one (issue 19).
  const canSwitch =
    changes.lastInstall !== null && (changes.baseKind === 'last_install' || changes.lastInstall.id !== base?.id);
  return (
    <Flex vertical gap={16}>
      {canSwitch && (
        <Segmented<Base>
          data-testid="changes-base-switch"
          value={changes.baseKind === 'last_install' ? 'last_install' : 'previous'}
          onChange={onBase}
          options={[
            { value: 'previous', label: text.basePrevious },
            { value: 'last_install', label: text.baseLastInstall },
          ]}
        />
      )}
      <Typography.Text type="secondary" data-testid="changes-base">
        {baseLine(changes)}
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

/** The build whose 变更 is shown: a row of the list, or only its id (the link of a version's announcement). */
export type ChangesTarget = Pick<AppVersionRow, 'id'> &
  Partial<Pick<AppVersionRow, 'appVersion' | 'build' | 'indexNo'>>;

/**
 * 变更 of a build: its source commits, and what changed since the build before it — or since the build of the platform
 * the user last downloaded, when they choose so (issue 19).
 */
export function VersionChangesDrawer({ version, onClose }: { version: ChangesTarget | null; onClose: () => void }) {
  const isMobile = useIsMobile();
  const [base, setBase] = useState<Base>('previous');
  const versionId = version?.id ?? 0;
  useEffect(() => {
    if (versionId) setBase('previous');
  }, [versionId]);
  const changes = useQuery({
    queryKey: queryKeys.versionChanges(versionId, base),
    queryFn: ({ signal }) => fetchVersionChanges(versionId, base, signal),
    enabled: version !== null,
    // The switch stays while the other comparison of the same build loads (never another build's answer).
    placeholderData: (previous) => (previous?.version.id === versionId ? previous : undefined),
  });
  // A build opened by its id alone (a push's link) is named once its changes arrive.
  const named = changes.data?.version ?? version;
  const title =
    named?.indexNo === undefined
      ? ''
      : text.title(
          versionTitle({ appVersion: named.appVersion ?? null, build: named.build ?? null, indexNo: named.indexNo }),
        );
  return (
    <Drawer
      open={version !== null}
      onClose={onClose}
      width={isMobile ? '100%' : 560}
      title={title}
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
        <ChangesBody changes={changes.data} onBase={setBase} />
      )}
      {version && <PackageChangesSection versionId={version.id} />}
    </Drawer>
  );
}
