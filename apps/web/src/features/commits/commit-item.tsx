import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';
import type { CommitLogItem } from '@release/contract';
import { MediaThumbs } from '../media/media-thumbs.tsx';
import { shows, type DisplayCategory } from './commit-filter.ts';
import { clockText } from './commit-format.ts';
import { CommitMeta, BoundVersionTags, CommitTypeTag, PackageRow, PackageVersionTitle } from './commit-item-parts.tsx';
import { displayType, parseCommitMessage } from './commit-message.ts';
import { CommitMetadataView } from './commit-metadata-view.tsx';
import './commits.css';

/** Lines of a subject shown before 展开; the body shows four. */
const SUBJECT_ROWS = 3;

export interface CommitItemProps {
  item: CommitLogItem;
  metadata?: string;
  categories: readonly DisplayCategory[];
  showSource: boolean;
  /** The action menu, or null (no edit right, summary tab). */
  menu: ReactNode;
  onOpenMedia: (urls: string[], index: number) => void;
  /** The detail page shows the whole message and the full date. */
  timeText?: string;
}

/** One update item (SPEC §3): type + message, meta line, package, media, description, bound versions, metadata. */
export function CommitItem({ item, metadata, categories, showSource, menu, onOpenMedia, timeText }: CommitItemProps) {
  const isPackage = item.nativePackageType !== null || item.cdnUrl !== null;
  const parsed = parseCommitMessage(item.commitMessage);
  const type = displayType(parsed, isPackage);
  const filter = { categories: [...categories] };
  return (
    <div
      className={item.filtered ? 'commit-item is-filtered' : 'commit-item'}
      data-testid="commit-item"
      data-commit-id={item.commitId}
      data-item-id={item.id}
    >
      <div className="commit-item-time">{timeText ?? clockText(item.commitTime)}</div>
      <Flex vertical gap={6} className="commit-item-body">
        <Flex gap={8} align="flex-start" justify="space-between">
          <Flex gap={6} align="baseline" wrap style={{ minWidth: 0, flex: 1 }}>
            {isPackage ? <PackageVersionTitle item={item} /> : null}
            {type ? <CommitTypeTag type={type} /> : null}
            {parsed.scope ? <Typography.Text type="secondary">{parsed.scope}</Typography.Text> : null}
            {/* A long subject folds like the body: three lines, then 展开 (it may be one line of a thousand characters). */}
            <Typography.Paragraph
              strong
              className="commit-subject"
              ellipsis={{ rows: SUBJECT_ROWS, expandable: 'collapsible' }}
              data-testid="commit-message"
            >
              {parsed.subject || item.commitMessage}
            </Typography.Paragraph>
          </Flex>
          {menu}
        </Flex>
        {shows(filter, 'changelog') && parsed.body ? (
          <Typography.Paragraph
            type="secondary"
            className="commit-body"
            ellipsis={{ rows: 4, expandable: 'collapsible' }}
            data-testid="commit-body"
          >
            {parsed.body}
          </Typography.Paragraph>
        ) : null}
        <CommitMeta item={item} showSource={showSource} isPackage={isPackage} />
        {isPackage ? <PackageRow item={item} /> : null}
        {shows(filter, 'changelog') ? <CommitMetadataView json={metadata} /> : null}
        {shows(filter, 'media') ? (
          <MediaThumbs urls={item.fileUrls} onOpen={(index) => onOpenMedia(item.fileUrls, index)} />
        ) : null}
        {shows(filter, 'remark') && item.description ? (
          <Typography.Paragraph
            className="commit-description"
            ellipsis={{ rows: 6, expandable: 'collapsible' }}
            data-testid="commit-description"
          >
            {item.description}
          </Typography.Paragraph>
        ) : null}
        <BoundVersionTags versions={item.bindVersions} />
      </Flex>
    </div>
  );
}
