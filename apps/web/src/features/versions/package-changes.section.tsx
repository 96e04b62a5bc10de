import type { ReactNode } from 'react';
import { Alert, Button, Flex, List, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  formatBytes,
  formatSizeDelta,
  isDangerousPermission,
  shortPermission,
  type PackageChanges,
  type PackageDiff,
} from '@release/contract';
import { fetchPackageChanges, packageChangesKeys } from '../../api/package-changes.api.ts';
import { packageText as text } from './package-changes.strings.ts';
import { versionTitle } from './version-format.ts';

/** Parts listed before "还有 N 项": the biggest movers. */
const MAX_PARTS = 8;

function Names({
  label,
  names,
  testId,
  tone,
}: {
  label: string;
  names: string[];
  testId: string;
  tone: 'added' | 'removed';
}) {
  if (names.length === 0) return null;
  return (
    <Flex vertical gap={4} data-testid={testId}>
      <Typography.Text strong>{label}</Typography.Text>
      <Flex gap={4} wrap>
        {names.map((name) => {
          const dangerous = tone === 'added' && isDangerousPermission(name);
          return (
            <Tag
              key={name}
              color={dangerous ? 'red' : tone === 'added' ? 'blue' : undefined}
              style={{ marginInlineEnd: 0, maxWidth: '100%', whiteSpace: 'normal', wordBreak: 'break-all' }}
              data-dangerous={dangerous || undefined}
            >
              {shortPermission(name)}
              {dangerous ? ` · ${text.dangerous}` : ''}
            </Tag>
          );
        })}
      </Flex>
    </Flex>
  );
}

/** A list's additions then its removals (`<testId>-added`, `<testId>-removed`), each shown only when not empty. */
function AddedRemoved({
  labels,
  list,
  testId,
}: {
  labels: [added: string, removed: string];
  list: { added: string[]; removed: string[] };
  testId: string;
}) {
  return (
    <>
      <Names label={labels[0]} names={list.added} testId={`${testId}-added`} tone="added" />
      <Names label={labels[1]} names={list.removed} testId={`${testId}-removed`} tone="removed" />
    </>
  );
}

function Line({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Flex gap={8} wrap align="baseline" data-testid={testId}>
      <Typography.Text strong>{label}</Typography.Text>
      <Typography.Text>{children}</Typography.Text>
    </Flex>
  );
}

function Size({ size }: { size: PackageDiff['size'] }) {
  const percent = size.percent === null ? null : `${size.percent >= 0 ? '+' : ''}${size.percent.toFixed(1)}%`;
  const parts = size.parts.slice(0, MAX_PARTS);
  return (
    <Flex vertical gap={4}>
      <Line label={text.totalSize} testId="package-size">
        {text.sizeLine(formatBytes(size.from), formatBytes(size.to), formatSizeDelta(size.delta), percent)}
      </Line>
      {parts.length === 0 ? (
        <Typography.Text type="secondary">{text.noPartChanges}</Typography.Text>
      ) : (
        <List
          size="small"
          data-testid="package-parts"
          dataSource={parts}
          rowKey={(p) => p.key}
          renderItem={(p) => (
            <List.Item data-testid="package-part" data-part={p.key} style={{ paddingInline: 0 }}>
              <Flex justify="space-between" gap={8} wrap style={{ width: '100%' }}>
                <Typography.Text>{p.label}</Typography.Text>
                <Typography.Text type="secondary">
                  {formatBytes(p.from)} → {formatBytes(p.to)}{' '}
                  <Typography.Text type={p.delta > 0 ? 'danger' : 'success'} data-testid="package-part-delta">
                    {formatSizeDelta(p.delta)}
                  </Typography.Text>
                </Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Flex>
  );
}

function Diff({ diff }: { diff: PackageDiff }) {
  const { signing } = diff;
  const unchanged =
    !diff.permissions.added.length &&
    !diff.permissions.removed.length &&
    !diff.entitlements.added.length &&
    !diff.entitlements.removed.length &&
    !diff.minOs &&
    !diff.targetSdk &&
    !diff.buildSdk &&
    !diff.certificateChanged &&
    ![diff.frameworks, diff.extensions, diff.dylibs].some((l) => l.added.length || l.removed.length);
  const signer = (s: typeof signing.from) => s?.identity ?? s?.teamId ?? s?.certificate?.slice(0, 16) ?? '-';
  return (
    <Flex vertical gap={12}>
      {diff.certificateChanged && (
        <Alert
          type="error"
          showIcon
          data-testid="package-certificate-changed"
          title={text.certificateChanged}
          description={text.certificateLine(signer(signing.from), signer(signing.to))}
        />
      )}
      <Size size={diff.size} />
      <AddedRemoved
        labels={[text.permissionsAdded, text.permissionsRemoved]}
        list={diff.permissions}
        testId="package-permissions"
      />
      <AddedRemoved
        labels={[text.entitlementsAdded, text.entitlementsRemoved]}
        list={diff.entitlements}
        testId="package-entitlements"
      />
      {diff.minOs && (
        <Line label={text.minOs} testId="package-min-os">
          {diff.minOs.from ?? '-'} → {diff.minOs.to ?? '-'}{' '}
          {diff.minOs.raised && (
            <Tag color="orange" style={{ marginInlineEnd: 0 }}>
              {text.raised}
            </Tag>
          )}
        </Line>
      )}
      {diff.targetSdk && (
        <Line label={text.targetSdk} testId="package-target-sdk">
          {diff.targetSdk.from ?? '-'} → {diff.targetSdk.to ?? '-'}
        </Line>
      )}
      {diff.buildSdk && (
        <Line label={text.buildSdk} testId="package-build-sdk">
          {diff.buildSdk.from ?? '-'} → {diff.buildSdk.to ?? '-'}
        </Line>
      )}
      <AddedRemoved
        labels={[text.frameworksAdded, text.frameworksRemoved]}
        list={diff.frameworks}
        testId="package-frameworks"
      />
      <AddedRemoved
        labels={[text.extensionsAdded, text.extensionsRemoved]}
        list={diff.extensions}
        testId="package-extensions"
      />
      <AddedRemoved labels={[text.dylibsAdded, text.dylibsRemoved]} list={diff.dylibs} testId="package-dylibs" />
      {unchanged && <Typography.Text type="secondary">{text.nothingElse}</Typography.Text>}
    </Flex>
  );
}

function Body({ changes }: { changes: PackageChanges }) {
  const { base, diff } = changes;
  const noData = (why: string) => (
    <Flex gap={8} align="baseline" wrap data-testid="package-no-data">
      <Tag style={{ marginInlineEnd: 0 }}>{text.noData}</Tag>
      <Typography.Text type="secondary">{why}</Typography.Text>
    </Flex>
  );
  return (
    <Flex vertical gap={12}>
      {changes.alerts.length > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="package-alerts"
          title={text.alerts}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {changes.alerts.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
          }
        />
      )}
      {!changes.versionHasFacts ? (
        noData(text.noFacts)
      ) : !base ? (
        <Typography.Text type="secondary">
          {text.firstBuild}
          {changes.facts ? ` ${text.totalSize} ${formatBytes(changes.facts.size.total)}` : ''}
        </Typography.Text>
      ) : !changes.baseHasFacts || !diff ? (
        noData(text.baseNoFacts(versionTitle(base)))
      ) : (
        <Diff diff={diff} />
      )}
    </Flex>
  );
}

/** 安装包变化: how the package itself changed since the build before it, from the facts stored at publish (issue 19). */
export function PackageChangesSection({ versionId }: { versionId: number }) {
  const changes = useQuery({
    queryKey: packageChangesKeys.changes(versionId),
    queryFn: ({ signal }) => fetchPackageChanges(versionId, signal),
  });
  return (
    <section data-testid="package-changes" style={{ marginTop: 16 }}>
      <Typography.Title level={5} style={{ margin: '0 0 8px' }}>
        {text.title}
      </Typography.Title>
      {changes.isPending ? (
        <Spin size="small" tip={text.loading}>
          <div style={{ height: 32 }} />
        </Spin>
      ) : changes.isError ? (
        <Alert
          type="error"
          showIcon
          title={text.failed}
          description={changes.error.message}
          action={<Button onClick={() => void changes.refetch()}>{text.retry}</Button>}
        />
      ) : (
        <Body changes={changes.data} />
      )}
    </section>
  );
}
