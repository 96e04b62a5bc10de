import { Button, Empty, List, Modal, Popconfirm, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { fetchLoginOptions } from '../../api/auth.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchIdentities, unbindIdentity } from '../../api/sso.api.ts';
import { toast } from '../../app/feedback.ts';
import { queryClient } from '../../app/query-client.ts';
import { zh } from '../../locales/zh-CN.ts';
import { goToLark } from './lark-sign-in.ts';

const IDENTITIES_KEY = ['user-identities'] as const;

/** 账号绑定: the Lark / WeCom accounts that sign in as this user; bind Lark (bind_login) or unbind. */
export function LinkedAccountsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const text = zh.linkedAccounts;
  const identities = useQuery({
    queryKey: IDENTITIES_KEY,
    queryFn: ({ signal }) => fetchIdentities(signal),
    enabled: open,
  });
  const options = useQuery({
    queryKey: queryKeys.loginOptions,
    queryFn: ({ signal }) => fetchLoginOptions(signal),
    enabled: open,
  });
  const unbind = useMutation({
    mutationFn: unbindIdentity,
    onSuccess: async () => {
      toast.success(text.unbound);
      await queryClient.invalidateQueries({ queryKey: IDENTITIES_KEY });
    },
  });
  const hasLark = identities.data?.some((i) => i.provider === 'lark') ?? false;
  const bindLark = () => void goToLark('bind_login').catch(() => window.alert(zh.login.loginUrlFailed));

  return (
    <Modal open={open} title={text.title} onCancel={onClose} footer={null} destroyOnHidden>
      <div data-testid="linked-accounts">
        <List
          loading={identities.isPending}
          dataSource={identities.data ?? []}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text.empty} /> }}
          renderItem={(identity) => (
            <List.Item
              data-testid={`linked-${identity.provider}`}
              actions={[
                <Popconfirm
                  key="unbind"
                  title={text.unbindConfirm(identity.displayName)}
                  onConfirm={() => unbind.mutate(identity.provider)}
                >
                  <Button danger size="small" loading={unbind.isPending} data-testid={`unbind-${identity.provider}`}>
                    {text.unbind}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={`${text.provider[identity.provider]}：${identity.displayName}`}
                description={text.boundAt(dayjs(identity.createTime).format('YYYY-MM-DD HH:mm'))}
              />
            </List.Item>
          )}
        />
        {options.data?.larkEnabled && !hasLark ? (
          <Button type="primary" block onClick={bindLark} data-testid="bind-lark" style={{ marginTop: 12 }}>
            {text.bindLark}
          </Button>
        ) : null}
        {hasLark ? <Typography.Text type="secondary">{text.larkHint}</Typography.Text> : null}
        {options.data && !options.data.larkEnabled && !hasLark ? (
          <Typography.Text type="secondary" data-testid="bind-lark-off">
            {text.larkOff}
          </Typography.Text>
        ) : null}
      </div>
    </Modal>
  );
}
