import { useState } from 'react';
import { Avatar, Button, Collapse, Flex, Tag, Typography } from 'antd';
import { DiffOutlined, FileTextOutlined } from '@ant-design/icons';
import {
  changelogText,
  parseCommitMetadata,
  type ChangedFiles,
  type UploadApplication,
  type WikiEvent,
} from './commit-metadata.ts';
import { commitsText } from './commits.strings.ts';
import { WikiDiffModal } from './wiki-diff.modal.tsx';

const text = commitsText.metadata;

function UploadLog({ applications }: { applications: UploadApplication[] }) {
  return (
    <Flex vertical gap={6} data-testid="commit-upload-log">
      {applications.map((app) => (
        <Flex key={app.applicationId || app.name} gap={8} align="flex-start">
          <Avatar shape="square" size={24} src={app.icon ?? undefined}>
            {app.name.slice(0, 1)}
          </Avatar>
          <Flex vertical gap={2}>
            <Typography.Text strong>{app.name}</Typography.Text>
            <Flex gap={4} wrap>
              {app.changelogs.map((log, index) => (
                <Tag key={log.id || index} style={{ marginInlineEnd: 0 }}>
                  {changelogText(log)}
                </Tag>
              ))}
            </Flex>
          </Flex>
        </Flex>
      ))}
    </Flex>
  );
}

function WikiEventView({ event }: { event: WikiEvent }) {
  const [diff, setDiff] = useState<WikiEvent | null>(null);
  const label =
    event.event in text.wikiEvents ? text.wikiEvents[event.event as keyof typeof text.wikiEvents] : event.event;
  return (
    <Flex gap={8} wrap align="center" data-testid="commit-wiki-event">
      <Tag color="purple" style={{ marginInlineEnd: 0 }}>
        {label}
      </Tag>
      {event.spaceName ? <Typography.Text type="secondary">{event.spaceName}</Typography.Text> : null}
      {event.url ? (
        <Typography.Link href={event.url} target="_blank" rel="noreferrer">
          <FileTextOutlined /> {event.objTitle}
        </Typography.Link>
      ) : (
        <Typography.Text>{event.objTitle}</Typography.Text>
      )}
      {event.changeVisible ? (
        <Button size="small" icon={<DiffOutlined />} onClick={() => setDiff(event)} data-testid="commit-wiki-diff">
          {text.viewDiff}
        </Button>
      ) : null}
      <WikiDiffModal event={diff} onClose={() => setDiff(null)} />
    </Flex>
  );
}

function FileList({ files }: { files: ChangedFiles }) {
  const labels = commitsText.item.files;
  const total = files.added.length + files.modified.length + files.removed.length;
  const rows = (['added', 'modified', 'removed'] as const).flatMap((kind) =>
    files[kind].map((path) => ({ kind, path })),
  );
  return (
    <Collapse
      size="small"
      ghost
      data-testid="commit-files"
      items={[
        {
          key: 'files',
          label: (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {commitsText.item.filesTitle(total)}（{labels.added} {files.added.length} · {labels.modified}{' '}
              {files.modified.length} · {labels.removed} {files.removed.length}）
            </Typography.Text>
          ),
          children: (
            <div className="commit-files">
              {rows.map((row) => (
                <div key={`${row.kind}-${row.path}`} className={`commit-file is-${row.kind}`}>
                  {labels[row.kind]} {row.path}
                </div>
              ))}
            </div>
          ),
        },
      ]}
    />
  );
}

/** SPEC §3 upload-log and wiki-event metadata, and a git commit's changed files. */
export function CommitMetadataView({ json }: { json: string | undefined }) {
  const metadata = parseCommitMetadata(json);
  if (!metadata) return null;
  switch (metadata.kind) {
    case 'upload':
      return <UploadLog applications={metadata.applications} />;
    case 'wiki':
      return <WikiEventView event={metadata.event} />;
    case 'files':
      return <FileList files={metadata.files} />;
  }
}
