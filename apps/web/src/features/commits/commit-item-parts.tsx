import { Flex, Tag, Tooltip, Typography } from 'antd';
import { BranchesOutlined, DownloadOutlined, TagOutlined, UserOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import {
  boundGroupLabels,
  boundGroupOf,
  boundVersionGroups,
  nativePackageTypes,
  platformColors,
  type CommitLogItem,
  type NativePackageType,
} from '@release/contract';
import { fileNameOf } from '../media/media-view.ts';
import { PackageTypeIcon } from '../versions/package-type.tsx';
import { versionText } from '../versions/version-format.ts';
import { commitTypes, shortCommitId, type CommitType } from './commit-message.ts';
import { commitsText } from './commits.strings.ts';

const text = commitsText.item;

export function CommitTypeTag({ type }: { type: CommitType }) {
  const { label, emoji } = commitTypes[type];
  return (
    <Tag className="commit-type-tag" data-commit-type={type} style={{ marginInlineEnd: 0 }}>
      {emoji} {label}
    </Tag>
  );
}

/** Each group of bound builds with its tag and its platforms' colour (IPA blue, APK green, WEB orange, HAP red). */
const boundKinds = boundVersionGroups.map((key) => ({
  key,
  label: boundGroupLabels[key],
  color: platformColors[nativePackageTypes.find((platform) => boundGroupOf[platform] === key) ?? 'web'],
}));

/** The package versions an item is bound to: IPA / APK / WEB / HAP chips with version (build). */
export function BoundVersionTags({ versions }: { versions: CommitLogItem['bindVersions'] }) {
  const chips = boundKinds.flatMap((kind) => versions[kind.key].map((v) => ({ ...v, kind })));
  if (chips.length === 0) return null;
  return (
    <Flex gap={4} wrap align="center" data-testid="commit-bound-versions">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {text.boundVersions}
      </Typography.Text>
      {chips.map((chip) => (
        <Tag
          key={`${chip.kind.key}-${chip.appVersionId}`}
          color={chip.removed ? 'default' : chip.kind.color}
          style={{ marginInlineEnd: 0 }}
          data-removed={chip.removed ? 'true' : undefined}
        >
          {chip.kind.label} {versionText(chip)}{' '}
          <Typography.Text type="secondary" style={{ fontSize: 11 }}>
            #{chip.indexNo}
          </Typography.Text>
          {chip.removed ? <RemovedMark /> : null}
        </Tag>
      ))}
    </Flex>
  );
}

/** 已删除 beside a build that was removed: the item keeps naming it. */
function RemovedMark() {
  return (
    <Tooltip title={text.versionRemovedHint}>
      <Typography.Text type="danger" style={{ fontSize: 11, marginInlineStart: 4 }} data-testid="version-removed-mark">
        {text.versionRemoved}
      </Typography.Text>
    </Tooltip>
  );
}

function isNativePackageType(value: string | null): value is NativePackageType {
  return nativePackageTypes.some((type) => type === value);
}

/** A package item's name: version (build) and its index number, as the package list shows them. */
export function PackageVersionTitle({ item }: { item: CommitLogItem }) {
  const version = item.packageVersion;
  if (!version) return null;
  return (
    <Typography.Text strong className="commit-package-version" data-testid="commit-package-version">
      {versionText(version)} <Typography.Text type="secondary">#{version.indexNo}</Typography.Text>
      {version.removed ? <RemovedMark /> : null}
    </Typography.Text>
  );
}

/** A package workflow's item: the platform icon, a download link and who uploaded it (→ their trend). */
export function PackageRow({ item }: { item: CommitLogItem }) {
  if (!item.cdnUrl && !item.nativePackageType) return null;
  const fileName = item.cdnUrl ? fileNameOf(item.cdnUrl) : '';
  const uploader = item.uploadBy ?? (item.remark || null);
  return (
    <Flex gap={8} align="center" wrap data-testid="commit-package">
      {isNativePackageType(item.nativePackageType) ? (
        <PackageTypeIcon
          version={{ nativePackageType: item.nativePackageType, fileName, cdnUrl: item.cdnUrl ?? undefined }}
          size={16}
        />
      ) : null}
      {item.cdnUrl ? (
        <Typography.Link href={item.cdnUrl} download={fileName} data-testid="commit-package-download">
          <DownloadOutlined /> {text.download}
        </Typography.Link>
      ) : null}
      {uploader ? (
        <Typography.Text type="secondary" data-testid="commit-uploader">
          {text.uploadBy}
          <Link to={`/trend/${encodeURIComponent(item.remark || uploader)}`}>{uploader}</Link>
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

interface CommitMetaProps {
  item: CommitLogItem;
  /** Summary tab and trend page: which app and workflow the item belongs to. */
  showSource: boolean;
  isPackage: boolean;
}

/** Commit id (7 characters), branch, tag with its summary, committer (→ trend) and source. */
export function CommitMeta({ item, showSource, isPackage }: CommitMetaProps) {
  const tagSummary = item.tagSummary.filter(Boolean).join('\n');
  return (
    <Flex gap={8} wrap align="center" className="commit-meta">
      {showSource ? (
        <Tag color="geekblue" style={{ marginInlineEnd: 0 }} data-testid="commit-source">
          {item.appName} / {item.tabName}
        </Tag>
      ) : null}
      {!isPackage && shortCommitId(item.commitId) !== null ? (
        <Typography.Text
          code
          copyable={{ text: item.commitId, tooltips: [text.copyId, text.copied] }}
          data-testid="commit-id"
        >
          {shortCommitId(item.commitId)}
        </Typography.Text>
      ) : null}
      {item.branch ? (
        <Typography.Text type="secondary" data-testid="commit-branch">
          <BranchesOutlined /> {item.branch}
        </Typography.Text>
      ) : null}
      {item.tagName ? (
        <Tooltip title={tagSummary ? <span style={{ whiteSpace: 'pre-wrap' }}>{tagSummary}</span> : undefined}>
          <Tag icon={<TagOutlined />} color="gold" style={{ marginInlineEnd: 0 }} data-testid="commit-tag">
            {item.tagName}
          </Tag>
        </Tooltip>
      ) : null}
      {item.tagName && tagSummary ? (
        <Typography.Text
          type="secondary"
          style={{ fontSize: 12 }}
          ellipsis={{ tooltip: tagSummary }}
          className="commit-tag-summary"
        >
          {item.tagSummary.filter(Boolean)[0]}
        </Typography.Text>
      ) : null}
      {item.remark && !isPackage ? (
        <Link to={`/trend/${encodeURIComponent(item.remark)}`} data-testid="commit-committer">
          <UserOutlined /> {item.remark}
        </Link>
      ) : null}
      {item.filtered ? (
        <Tooltip title={text.filteredHint}>
          <Tag style={{ marginInlineEnd: 0 }}>{text.filtered}</Tag>
        </Tooltip>
      ) : null}
    </Flex>
  );
}
