import { useState } from 'react';
import { Form, Modal, Radio, Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { CommitLogItem, SendResult } from '@release/contract';
import { sendMessage } from '../../api/messaging.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchUserBriefs } from '../../api/users.api.ts';
import { toast } from '../../app/feedback.ts';
import { useIsAdmin } from '../../app/session.store.ts';
import { useIsLarkEnabled } from '../../app/use-is-lark-enabled.ts';
import { followDeliveries } from './follow-deliveries.ts';
import { MessagePreview } from './message-preview.tsx';
import { messagingText } from './messaging.strings.ts';

const text = messagingText.send;

type ScopeKey = keyof typeof text.scopes;

interface Scope {
  key: ScopeKey;
  adminOnly: boolean;
  /** Sent to people through the Lark app: offered only when one is configured. */
  needsLark: boolean;
  body: {
    receiveType: 'commit' | 'chat' | 'self' | 'view_app' | 'subscribe' | 'user_ids';
    chatEnv?: 'DevTest' | 'PreFavTest';
  };
}

/** SPEC §3 scopes as the radio offers them, with the SPEC §6 admin-only ones marked. */
const SCOPES: Scope[] = [
  { key: 'commit', adminOnly: false, needsLark: false, body: { receiveType: 'commit' } },
  { key: 'chatDev', adminOnly: false, needsLark: false, body: { receiveType: 'chat', chatEnv: 'DevTest' } },
  { key: 'chatProd', adminOnly: true, needsLark: false, body: { receiveType: 'chat', chatEnv: 'PreFavTest' } },
  { key: 'self', adminOnly: false, needsLark: true, body: { receiveType: 'self' } },
  { key: 'viewApp', adminOnly: false, needsLark: true, body: { receiveType: 'view_app' } },
  { key: 'subscribe', adminOnly: true, needsLark: true, body: { receiveType: 'subscribe' } },
  { key: 'userIds', adminOnly: true, needsLark: true, body: { receiveType: 'user_ids' } },
];

/** Group robots are reached through the endpoint of the service their address belongs to. */
function serviceOf(scope: ScopeKey, workflowRobotUrl: string | null): 'lark' | 'wecom' {
  if (scope === 'commit') return workflowRobotUrl?.includes('/cgi-bin/webhook/') ? 'wecom' : 'lark';
  return scope === 'chatDev' || scope === 'chatProd' ? 'wecom' : 'lark';
}

interface SendMessageModalProps {
  /** The item whose 发送通知 was chosen; null when closed. */
  item: CommitLogItem | null;
  /** The tab's robot address (editors see it), to pick the right service. */
  workflowRobotUrl: string | null;
  onClose: () => void;
}

/** 发送通知: one update item (with its bound package) to a group robot or to people. */
export function SendMessageModal({ item, workflowRobotUrl, onClose }: SendMessageModalProps) {
  const isAdmin = useIsAdmin();
  const isLarkEnabled = useIsLarkEnabled();
  const [picked, setPicked] = useState<ScopeKey>('commit');
  // Without a robot on the workflow its option is disabled and the default is the sender themselves (with Lark)
  // or the app's test group.
  const hasRobot = Boolean(workflowRobotUrl);
  const offered = SCOPES.filter((s) => (isAdmin || !s.adminOnly) && (isLarkEnabled || !s.needsLark));
  const scope: ScopeKey = picked === 'commit' && !hasRobot ? (isLarkEnabled ? 'self' : 'chatDev') : picked;
  const [sending, setSending] = useState(false);
  const [userIds, setUserIds] = useState<number[]>([]);
  const users = useQuery({
    queryKey: queryKeys.userBriefs,
    queryFn: ({ signal }) => fetchUserBriefs(signal),
    enabled: isAdmin && item !== null,
  });
  const submit = async (): Promise<void> => {
    if (!item) return;
    const chosen = SCOPES.find((s) => s.key === scope) ?? SCOPES[0];
    if (!chosen) return;
    if (scope === 'userIds' && !userIds.length) {
      toast.warning(text.chooseUsers);
      return;
    }
    setSending(true);
    let result: SendResult;
    try {
      result = await sendMessage(serviceOf(scope, workflowRobotUrl), {
        appId: item.appId,
        workflowId: item.workflowId,
        commitId: item.id,
        branch: item.branch,
        ...chosen.body,
        ...(scope === 'userIds' ? { userIds } : {}),
      });
    } catch {
      // The client already showed the server's reason.
      setSending(false);
      return;
    }
    setSending(false);
    onClose();
    await followDeliveries(result);
  };
  return (
    <Modal
      open={item !== null}
      title={text.title}
      okText={messagingText.ok}
      cancelText={messagingText.cancel}
      confirmLoading={sending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      width="min(560px, calc(100vw - 24px))"
      okButtonProps={{ 'data-testid': 'send-message-ok' } as never}
    >
      <Form layout="vertical">
        <Form.Item label={text.receiver}>
          <Radio.Group
            value={scope}
            onChange={(e) => setPicked(e.target.value as ScopeKey)}
            data-testid="send-message-scope"
          >
            <Space direction="vertical">
              {offered.map((s) => (
                <Radio
                  key={s.key}
                  value={s.key}
                  disabled={s.key === 'commit' && !hasRobot}
                  data-testid={`send-scope-${s.key}`}
                >
                  {text.scopes[s.key]}
                  {s.key === 'commit' && !hasRobot ? (
                    <span style={{ color: 'rgba(0,0,0,0.45)' }}>{text.robotMissing}</span>
                  ) : null}
                  {s.adminOnly ? <span style={{ color: 'rgba(0,0,0,0.45)' }}>（{text.adminOnly}）</span> : null}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        {scope === 'userIds' ? (
          <Form.Item label={text.scopes.userIds}>
            <Select
              mode="multiple"
              data-testid="send-message-users"
              value={userIds}
              onChange={setUserIds}
              placeholder={text.chooseUsers}
              optionFilterProp="label"
              options={(users.data ?? []).map((u) => ({ value: u.userId, label: u.username }))}
            />
          </Form.Item>
        ) : null}
        <Form.Item label={text.preview}>
          {item ? <MessagePreview title={`${item.appName} · ${item.tabName}`} items={[item]} /> : null}
        </Form.Item>
      </Form>
    </Modal>
  );
}
