import { Flex, Tag, Tooltip, Typography, type TableColumnsType, type TableColumnType } from 'antd';
import dayjs from 'dayjs';
import type { ApiTokenRow } from '@release/contract';
import { revokeApiToken } from '../../api/api-tokens.api.ts';
import { operationColumn, RowActions } from '../../app/components/row-actions.tsx';
import { zh } from '../../locales/zh-CN.ts';
import { shownPrefix, tokenStatus, type TokenStatus } from './token-status.ts';

const STATUS_COLORS: Record<TokenStatus, string> = { active: 'success', expired: 'warning', revoked: 'default' };

function formatTime(time: number): string {
  return dayjs(time).format('YYYY-MM-DD HH:mm');
}

function LastUsed({ time, now }: { time: number | null; now: number }) {
  if (time === null) return <Typography.Text type="secondary">{zh.apiTokens.neverUsed}</Typography.Text>;
  return <Tooltip title={formatTime(time)}>{dayjs(time).from(now)}</Tooltip>;
}

function expiryText(time: number | null): string {
  return time === null ? zh.apiTokens.never : formatTime(time);
}

function TokenPrefix({ prefix }: { prefix: string }) {
  return (
    <Typography.Text code data-testid="token-prefix">
      {shownPrefix(prefix)}
    </Typography.Text>
  );
}

function statusColumn(now: number): TableColumnType<ApiTokenRow> {
  return {
    title: zh.apiTokens.status,
    key: 'status',
    width: 84,
    render: (_, row) => {
      const status = tokenStatus(row, now);
      return (
        <Tag color={STATUS_COLORS[status]} data-testid="token-status">
          {zh.apiTokens.statuses[status]}
        </Tag>
      );
    },
  };
}

function revokeColumn(onRevoked: () => unknown): TableColumnType<ApiTokenRow> {
  return operationColumn<ApiTokenRow>(76, (row) =>
    row.revokedTime !== null ? null : (
      <RowActions
        testIdPrefix="token"
        deleteTestId="token-revoke"
        deleteLabel={zh.apiTokens.revoke}
        deletedText={zh.apiTokens.revoked}
        confirmTitle={zh.apiTokens.revokeConfirm}
        confirmDescription={zh.apiTokens.revokeHint}
        onDelete={() => revokeApiToken(row.id)}
        onDeleted={onRevoked}
      />
    ),
  );
}

/** Phones: one column holds name, prefix, last use and expiry, beside the status and 吊销. */
function compactColumns(now: number): TableColumnsType<ApiTokenRow> {
  return [
    {
      title: zh.apiTokens.name,
      key: 'summary',
      render: (_, row) => (
        <Flex vertical gap={2} style={{ minWidth: 0, fontSize: 12 }}>
          <Typography.Text strong ellipsis style={{ fontSize: 14 }}>
            {row.name}
          </Typography.Text>
          <TokenPrefix prefix={row.prefix} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {zh.apiTokens.lastUsed}：<LastUsed time={row.lastUsedTime} now={now} />
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {zh.apiTokens.expireTime}：{expiryText(row.expireTime)}
          </Typography.Text>
        </Flex>
      ),
    },
  ];
}

function wideColumns(now: number): TableColumnsType<ApiTokenRow> {
  return [
    { title: zh.apiTokens.name, dataIndex: 'name', width: 180, ellipsis: true },
    {
      title: zh.apiTokens.token,
      dataIndex: 'prefix',
      width: 130,
      render: (prefix: string) => <TokenPrefix prefix={prefix} />,
    },
    { title: zh.apiTokens.createTime, dataIndex: 'createTime', width: 150, render: formatTime },
    {
      title: zh.apiTokens.lastUsed,
      dataIndex: 'lastUsedTime',
      width: 110,
      render: (time: number | null) => <LastUsed time={time} now={now} />,
    },
    { title: zh.apiTokens.expireTime, dataIndex: 'expireTime', width: 150, render: expiryText },
  ];
}

/** The columns of the API token table; `now` decides which tokens show as 已过期. */
export function tokenColumns(now: number, isMobile: boolean, onRevoked: () => unknown): TableColumnsType<ApiTokenRow> {
  return [...(isMobile ? compactColumns(now) : wideColumns(now)), statusColumn(now), revokeColumn(onRevoked)];
}
