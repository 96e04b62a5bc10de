import { Avatar, Button, type ButtonProps, Flex, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import {
  BugOutlined,
  DeleteOutlined,
  DiffOutlined,
  DownloadOutlined,
  EditOutlined,
  PaperClipOutlined,
  PushpinFilled,
  PushpinOutlined,
  QrcodeOutlined,
  SafetyCertificateOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import dayjs from 'dayjs';
import { isPackageExpired, type AppVersionRow, type VersionCounts } from '@release/contract';
import { InstallCounts } from '../install-stats/install-counts.tsx';
import { zh } from '../../locales/zh-CN.ts';
import { packageText } from './package-changes.strings.ts';
import { PackageTypeIcon, PackageTypeTag } from './package-type.tsx';
import { formatSize, formatVersionTime, isIpaPackage, versionTitle } from './version-format.ts';
import { versionsText } from './versions.strings.ts';
import { changesText } from './version-changes.strings.ts';
import { feedbackText } from '../feedback/feedback.strings.ts';

interface ColumnOptions {
  canEdit: boolean;
  /** Phones: size, uploader, time and note move under the version; no index column. */
  compact: boolean;
  now: number;
  onEditNote: (version: AppVersionRow) => void;
  onResign: (version: AppVersionRow) => void;
  /** 删除: the confirm that lists what goes. */
  onRemove: (version: AppVersionRow) => void;
  /** 链接/二维码: the build's own install page. */
  onShowLink: (version: AppVersionRow) => void;
  /** 标记保留 / 取消保留 (editors). */
  onTogglePin: (version: AppVersionRow) => void;
  /** 变更: what changed since the build before it. */
  onShowChanges: (version: AppVersionRow) => void;
  /** 反馈问题: tester feedback on this build (everyone who sees the list). */
  onFeedback: (version: AppVersionRow) => void;
  /** A build's downloads and installs (install statistics); undefined while they load. */
  countsOf: (versionId: number) => VersionCounts | undefined;
  /** 谁装了这个版本. */
  onShowHolders: (version: AppVersionRow) => void;
}

/** The certificate-expired hint of SPEC §4, with the expiry date on hover. */
export function ExpiredTag({ expireDate, now }: { expireDate: number | null; now: number }) {
  if (!isPackageExpired(expireDate, now) || expireDate === null) return null;
  return (
    <Tooltip title={versionsText.expiresAt(dayjs(expireDate).format('YYYY-MM-DD HH:mm'))}>
      <Tag color="red" data-testid="version-expired" style={{ marginInlineEnd: 0 }}>
        {versionsText.expired}
      </Tag>
    </Tooltip>
  );
}

/** 调试证书: the build installs only on its profile's test devices (an iOS development or HarmonyOS debug profile). */
export function DebugSignedTag({ version }: { version: AppVersionRow }) {
  if (!version.debugSigned) return null;
  return (
    <Tooltip title={versionsText.debugSignedHint}>
      <Tag color="orange" data-testid="version-debug-signed" style={{ marginInlineEnd: 0 }}>
        {versionsText.debugSigned}
      </Tag>
    </Tooltip>
  );
}

function VersionIcon({ version }: { version: AppVersionRow }) {
  if (version.iconUrl)
    return <Avatar shape="square" size={36} src={version.iconUrl} alt={version.displayName ?? version.fileName} />;
  return (
    <Avatar
      shape="square"
      size={36}
      style={{ background: '#f0f0f0', color: 'rgba(0,0,0,0.65)' }}
      icon={<PackageTypeIcon version={version} size={18} />}
    />
  );
}

/** The package thresholds the build crossed when it was published (issue 19), stored in its metadata. */
function PackageAlertsTag({ version }: { version: AppVersionRow }) {
  const stored = version.metadata.packageAlerts;
  const alerts = Array.isArray(stored) ? stored.filter((a): a is string => typeof a === 'string') : [];
  if (alerts.length === 0) return null;
  return (
    <Tooltip title={alerts.join('；')}>
      <Tag icon={<WarningOutlined />} color="red" style={{ marginInlineEnd: 0 }} data-testid="version-package-alerts">
        {packageText.tag}
      </Tag>
    </Tooltip>
  );
}

function VersionCell({
  version,
  now,
  compact,
  countsOf,
  onShowHolders,
}: { version: AppVersionRow; now: number; compact: boolean } & Pick<ColumnOptions, 'countsOf' | 'onShowHolders'>) {
  return (
    <Flex vertical gap={2} align="flex-start">
      <Typography.Text
        strong
        data-testid="version-text"
        style={{ maxWidth: '100%' }}
        ellipsis={{ tooltip: version.fileName }}
      >
        {versionTitle(version)}
      </Typography.Text>
      <Typography.Text
        type="secondary"
        style={{ fontSize: 12, maxWidth: '100%' }}
        ellipsis={{ tooltip: version.fileName }}
      >
        {version.displayName ?? version.fileName}
      </Typography.Text>
      <Flex gap={4} wrap>
        <PackageTypeTag version={version} />
        {version.pinned && (
          <Tooltip title={versionsText.pinnedHint}>
            <Tag color="gold" icon={<PushpinFilled />} style={{ marginInlineEnd: 0 }} data-testid="version-pinned">
              {versionsText.pinned}
            </Tag>
          </Tooltip>
        )}
      </Flex>
      {compact && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {formatSize(version.appSize)} · {formatVersionTime(version.createTime, now)} · {version.uploadBy ?? '-'}
        </Typography.Text>
      )}
      <ExpiredTag expireDate={version.expireDate} now={now} />
      <DebugSignedTag version={version} />
      <InstallCounts counts={countsOf(version.id)} onShow={() => onShowHolders(version)} />
      {compact && <NoteCell version={version} />}
      <PackageAlertsTag version={version} />
      {version.warnings.length > 0 && (
        <Tooltip title={version.warnings.join('\n')}>
          <Tag icon={<WarningOutlined />} color="warning" style={{ marginInlineEnd: 0 }}>
            {versionsText.warnings}
          </Tag>
        </Tooltip>
      )}
    </Flex>
  );
}

function NoteCell({ version }: { version: AppVersionRow }) {
  return (
    <Flex vertical gap={4}>
      {version.description ? (
        <Typography.Paragraph
          style={{ margin: 0, whiteSpace: 'pre-wrap' }}
          ellipsis={{ rows: 3, expandable: 'collapsible' }}
          data-testid="version-note"
        >
          {version.description}
        </Typography.Paragraph>
      ) : (
        <Typography.Text type="secondary">-</Typography.Text>
      )}
      {version.attachFiles.map((file) => (
        <Typography.Link
          key={file.url}
          href={file.url}
          target="_blank"
          rel="noreferrer"
          style={{ fontSize: 12 }}
          ellipsis
        >
          <PaperClipOutlined /> {file.fileName}
        </Typography.Link>
      ))}
    </Flex>
  );
}

/** One action of a version row: a small link button. */
function ActionLink(props: ButtonProps) {
  return <Button type="link" size="small" {...props} />;
}

function ActionsCell({
  version,
  canEdit,
  onEditNote,
  onResign,
  onRemove,
  onShowLink,
  onTogglePin,
  onShowChanges,
  onFeedback,
}: { version: AppVersionRow } & Pick<
  ColumnOptions,
  'canEdit' | 'onEditNote' | 'onResign' | 'onRemove' | 'onShowLink' | 'onTogglePin' | 'onShowChanges' | 'onFeedback'
>) {
  return (
    <Flex vertical align="flex-start">
      <ActionLink
        icon={<DownloadOutlined />}
        href={version.cdnUrl}
        download={version.fileName}
        data-testid="version-download"
      >
        {versionsText.download}
      </ActionLink>
      <ActionLink icon={<QrcodeOutlined />} onClick={() => onShowLink(version)} data-testid="version-link">
        {versionsText.link}
      </ActionLink>
      <ActionLink icon={<DiffOutlined />} onClick={() => onShowChanges(version)} data-testid="version-changes-open">
        {changesText.button}
      </ActionLink>
      <ActionLink icon={<BugOutlined />} onClick={() => onFeedback(version)} data-testid="version-feedback">
        {feedbackText.title}
      </ActionLink>
      {canEdit && (
        <ActionLink icon={<EditOutlined />} onClick={() => onEditNote(version)} data-testid="version-edit-note">
          {versionsText.editNote}
        </ActionLink>
      )}
      {canEdit && isIpaPackage(version) && (
        // SPEC §5: only packages whose url contains .ipa.
        <ActionLink icon={<SafetyCertificateOutlined />} onClick={() => onResign(version)} data-testid="version-resign">
          {versionsText.resign}
        </ActionLink>
      )}
      {canEdit && (
        <ActionLink
          icon={version.pinned ? <PushpinFilled /> : <PushpinOutlined />}
          onClick={() => onTogglePin(version)}
          data-testid="version-pin"
        >
          {version.pinned ? versionsText.unpin : versionsText.pin}
        </ActionLink>
      )}
      {canEdit && (
        <ActionLink danger icon={<DeleteOutlined />} onClick={() => onRemove(version)} data-testid="version-remove">
          {versionsText.remove}
        </ActionLink>
      )}
    </Flex>
  );
}

/** Columns of the package list (SPEC §2/§3): index, icon, version with type and expiry, size, uploader, time, note, actions. */
export function versionColumns({
  canEdit,
  compact,
  now,
  onEditNote,
  onResign,
  onRemove,
  onShowLink,
  onTogglePin,
  onShowChanges,
  onFeedback,
  countsOf,
  onShowHolders,
}: ColumnOptions): TableColumnsType<AppVersionRow> {
  const index: TableColumnsType<AppVersionRow> = [
    { title: versionsText.columns.index, dataIndex: 'indexNo', width: 60, render: (indexNo: number) => `#${indexNo}` },
  ];
  const details: TableColumnsType<AppVersionRow> = [
    { title: versionsText.columns.size, dataIndex: 'appSize', width: 96, render: (size: number) => formatSize(size) },
    {
      title: versionsText.columns.uploader,
      dataIndex: 'uploadBy',
      width: 96,
      ellipsis: true,
      render: (by: string | null) => by ?? '-',
    },
    {
      title: versionsText.columns.time,
      dataIndex: 'createTime',
      width: 110,
      render: (time: number) => (
        <Tooltip title={dayjs(time).format('YYYY-MM-DD HH:mm:ss')}>
          <span>{formatVersionTime(time, now)}</span>
        </Tooltip>
      ),
    },
  ];
  return [
    ...(compact ? [] : index),
    {
      title: versionsText.columns.icon,
      key: 'icon',
      width: compact ? 48 : 60,
      render: (_, row) => <VersionIcon version={row} />,
    },
    {
      title: versionsText.columns.version,
      key: 'version',
      width: compact ? undefined : 170,
      render: (_, row) => (
        <VersionCell version={row} now={now} compact={compact} countsOf={countsOf} onShowHolders={onShowHolders} />
      ),
    },
    ...(compact
      ? []
      : [
          ...details,
          {
            title: versionsText.columns.note,
            key: 'note',
            width: 240,
            render: (_: unknown, row: AppVersionRow) => <NoteCell version={row} />,
          },
        ]),
    {
      title: zh.common.operation,
      key: 'operation',
      width: compact ? 96 : 120,
      fixed: compact ? undefined : 'right',
      render: (_, row) => (
        <ActionsCell
          version={row}
          canEdit={canEdit}
          onEditNote={onEditNote}
          onResign={onResign}
          onRemove={onRemove}
          onShowLink={onShowLink}
          onTogglePin={onTogglePin}
          onShowChanges={onShowChanges}
          onFeedback={onFeedback}
        />
      ),
    },
  ];
}
