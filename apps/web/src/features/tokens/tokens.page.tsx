import { useState } from 'react';
import { Button, Card, Flex, Select, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_TABLE_PAGE_SIZE, type ApiTokenRow, type CreatedApiToken } from '@release/contract';
import { fetchApiTokens } from '../../api/api-tokens.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchUserBriefs } from '../../api/users.api.ts';
import { tablePagination } from '../../app/components/table-pagination.ts';
import { useEditing } from '../../app/components/use-editing.ts';
import { useIsAdmin, useSession } from '../../app/session.store.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { zh } from '../../locales/zh-CN.ts';
import { tokenColumns } from './token-columns.tsx';
import { TokenCreateModal } from './token-create.modal.tsx';
import { TokenPlainModal } from './token-plain.modal.tsx';
import { TokenUsage } from './token-usage.tsx';

/** Admins pick whose tokens to manage (e.g. a CI account); everyone else manages their own. */
function useTokenOwner() {
  const session = useSession();
  const isAdmin = useIsAdmin();
  const [pickedUserId, setPickedUserId] = useState<number>(session.userId);
  const users = useQuery({
    queryKey: queryKeys.userBriefs,
    queryFn: ({ signal }) => fetchUserBriefs(signal),
    enabled: isAdmin,
  });
  const userId = isAdmin ? pickedUserId : session.userId;
  const isSelf = userId === session.userId;
  const username = users.data?.find((u) => u.userId === userId)?.username ?? '';
  return { isAdmin, users, userId, isSelf, setUserId: setPickedUserId, other: isSelf ? null : { userId, username } };
}

/** /home/tokens: one's API tokens for release-cli and CI; a new token is shown once. */
export function TokensPage() {
  const queryClient = useQueryClient();
  const owner = useTokenOwner();
  const isMobile = useIsMobile();
  const [page, setPage] = useState({ pageNo: 1, pageSize: DEFAULT_TABLE_PAGE_SIZE });
  const creating = useEditing<ApiTokenRow>();
  const [plainToken, setPlainToken] = useState<string | null>(null);
  const params = { userId: owner.isSelf ? undefined : owner.userId, ...page };
  const tokens = useQuery({
    queryKey: queryKeys.apiTokenList(params),
    queryFn: ({ signal }) => fetchApiTokens(params, signal),
    placeholderData: keepPreviousData,
  });

  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: queryKeys.apiTokens });
  const onCreated = (created: CreatedApiToken): void => {
    creating.close();
    setPlainToken(created.token);
    void refresh();
  };

  return (
    <Card
      data-testid="tokens-page"
      title={zh.apiTokens.title}
      extra={
        <Button type="primary" icon={<PlusOutlined />} data-testid="token-add" onClick={creating.openCreate}>
          {zh.apiTokens.add}
        </Button>
      }
    >
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {zh.apiTokens.intro}
        </Typography.Paragraph>
        {owner.isAdmin ? (
          <Flex align="center" gap={8}>
            <Typography.Text>{zh.apiTokens.user}</Typography.Text>
            <Select
              data-testid="token-user"
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 240, maxWidth: '100%' }}
              loading={owner.users.isLoading}
              value={owner.userId}
              onChange={(userId: number) => {
                owner.setUserId(userId);
                setPage((p) => ({ ...p, pageNo: 1 }));
              }}
              options={(owner.users.data ?? []).map((u) => ({ value: u.userId, label: u.username }))}
            />
          </Flex>
        ) : null}
        <Table<ApiTokenRow>
          data-testid="token-table"
          rowKey="id"
          size="middle"
          columns={tokenColumns(Date.now(), isMobile, refresh)}
          dataSource={tokens.data?.rows ?? []}
          loading={tokens.isFetching}
          locale={{ emptyText: zh.apiTokens.empty }}
          scroll={isMobile ? undefined : { x: 900 }}
          pagination={tablePagination({
            total: tokens.data?.total ?? 0,
            pageNo: page.pageNo,
            pageSize: page.pageSize,
            onChange: (pageNo, pageSize) =>
              setPage((p) => ({ pageNo: pageSize === p.pageSize ? pageNo : 1, pageSize })),
          })}
        />
        <TokenUsage />
      </Flex>
      <TokenCreateModal open={creating.open} owner={owner.other} onClose={creating.close} onCreated={onCreated} />
      <TokenPlainModal token={plainToken} onClose={() => setPlainToken(null)} />
    </Card>
  );
}
