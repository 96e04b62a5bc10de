import { useMemo, useState } from 'react';
import { Form, Modal, Radio, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import type { CommitLogItem, SendResult } from '@release/contract';
import { commitKeys, fetchCommitPage } from '../../api/commit-logs.api.ts';
import { sendMultiCommits, sendTodayLogs } from '../../api/messaging.api.ts';
import { toast } from '../../app/feedback.ts';
import { useIsAdmin } from '../../app/session.store.ts';
import { parseCommitMessage, shortCommitId } from '../commits/commit-message.ts';
import { followDeliveries } from './follow-deliveries.ts';
import { MessagePreview } from './message-preview.tsx';
import { messagingText } from './messaging.strings.ts';
import { endChoices, itemsBetween, itemsOfDay, type RangeMode } from './send-range.ts';

const text = messagingText.logs;
/** The most items the modal reads for its choices and preview (the server sends the whole range anyway). */
const RANGE_PAGE_SIZE = 200;

type Destination = 'commit' | 'chatDev' | 'chatProd';
const DESTINATIONS: Record<Destination, { receiveType: 'commit' | 'chat'; chatEnv?: 'DevTest' | 'PreFavTest' }> = {
  commit: { receiveType: 'commit' },
  chatDev: { receiveType: 'chat', chatEnv: 'DevTest' },
  chatProd: { receiveType: 'chat', chatEnv: 'PreFavTest' },
};

interface SendLogsModalProps {
  /** The item whose 批量发送通知 was chosen (the custom range starts there); null when closed. */
  start: CommitLogItem | null;
  /** The tab's robot address (editors see it); without one, 工作流群机器人 is disabled. */
  workflowRobotUrl: string | null;
  onClose: () => void;
}

/** SPEC §2/§4 send-logs modal: today's logs, or a custom range from the chosen item to an end item after it. */
export function SendLogsModal({ start, workflowRobotUrl, onClose }: SendLogsModalProps) {
  const isAdmin = useIsAdmin();
  const [mode, setMode] = useState<RangeMode>('day');
  const [endId, setEndId] = useState<number | null>(null);
  const [picked, setPicked] = useState<Destination>('commit');
  const hasRobot = Boolean(workflowRobotUrl);
  const destination: Destination = picked === 'commit' && !hasRobot ? 'chatDev' : picked;
  const [sending, setSending] = useState(false);
  const dayStart = dayjs().startOf('day').valueOf();
  const dayEnd = dayjs(dayStart).add(1, 'day').valueOf();
  // The items from the start (or today) on, read for the modal: the list may not hold them (calendar view).
  const from = start ? Math.min(start.commitTime, dayStart) : dayStart;
  const range = useQuery({
    queryKey: [...commitKeys.all, 'send-range', start?.workflowId ?? 0, start?.branch ?? null, from],
    queryFn: ({ signal }) =>
      fetchCommitPage(
        { kind: 'workflows', workflowIds: String(start?.workflowId ?? 0) },
        { onlyCliff: true, startTime: from, ...(start?.branch ? { branch: start.branch } : {}) },
        { pageNo: 1, pageSize: RANGE_PAGE_SIZE, signal, silent: true },
      ),
    enabled: start !== null,
  });
  const items = useMemo(() => range.data?.list ?? [], [range.data]);
  const choices = useMemo(() => (start ? endChoices(items, start) : []), [items, start]);
  const end = choices.find((c) => c.id === endId) ?? null;
  const preview = useMemo(() => {
    if (!start) return [];
    if (mode === 'day') return itemsOfDay(items, dayStart, dayEnd);
    return end ? itemsBetween(items, start, end) : [start];
  }, [mode, items, start, end, dayStart, dayEnd]);

  const close = (): void => {
    setEndId(null);
    onClose();
  };
  const submit = async (): Promise<void> => {
    if (!start) return;
    if (mode === 'custom' && !end) {
      toast.warning(messagingText.noEndPoint);
      return;
    }
    setSending(true);
    let result: SendResult;
    try {
      const where = {
        appId: start.appId,
        workflowId: start.workflowId,
        branch: start.branch,
        ...DESTINATIONS[destination],
      };
      result =
        mode === 'day' || !end
          ? await sendTodayLogs({ ...where, startDate: dayStart, nextDate: dayEnd })
          : await sendMultiCommits({ ...where, startTime: start.commitTime, endTime: end.commitTime, all: true });
    } catch {
      setSending(false);
      return;
    }
    setSending(false);
    // SPEC §4: after a successful send the modal is back in day mode.
    setMode('day');
    close();
    await followDeliveries(result);
  };

  return (
    <Modal
      open={start !== null}
      title={text.title}
      okText={messagingText.ok}
      cancelText={messagingText.cancel}
      confirmLoading={sending}
      onOk={() => void submit()}
      onCancel={close}
      width="min(600px, calc(100vw - 24px))"
      okButtonProps={{ 'data-testid': 'send-logs-ok' } as never}
    >
      <Form layout="vertical">
        <Form.Item>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as RangeMode)} data-testid="send-logs-mode">
            <Radio value="day" data-testid="send-logs-day">
              {text.modes.day}
            </Radio>
            <Radio value="custom" data-testid="send-logs-custom">
              {text.modes.custom}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {mode === 'custom' && start ? (
          <>
            <Form.Item label={text.start}>
              <span data-testid="send-logs-start">
                {shortCommitId(start.commitId) !== null ? (
                  <>
                    <Typography.Text code>{shortCommitId(start.commitId)}</Typography.Text>{' '}
                  </>
                ) : null}
                {parseCommitMessage(start.commitMessage).subject}
              </span>
            </Form.Item>
            <Form.Item label={text.end}>
              <Select
                data-testid="send-logs-end"
                value={endId}
                onChange={setEndId}
                placeholder={text.endPlaceholder}
                loading={range.isPending}
                notFoundContent={text.noLaterCommits}
                options={choices.map((c) => ({
                  value: c.id,
                  label: [shortCommitId(c.commitId), parseCommitMessage(c.commitMessage).subject]
                    .filter(Boolean)
                    .join(' '),
                }))}
              />
            </Form.Item>
          </>
        ) : null}
        <Form.Item label={messagingText.send.receiver}>
          <Radio.Group
            value={destination}
            onChange={(e) => setPicked(e.target.value as Destination)}
            data-testid="send-logs-destination"
          >
            <Radio value="commit" disabled={!hasRobot}>
              {messagingText.send.scopes.commit}
              {hasRobot ? null : <span style={{ color: 'rgba(0,0,0,0.45)' }}>{messagingText.send.robotMissing}</span>}
            </Radio>
            <Radio value="chatDev">{messagingText.send.scopes.chatDev}</Radio>
            {isAdmin ? <Radio value="chatProd">{messagingText.send.scopes.chatProd}</Radio> : null}
          </Radio.Group>
        </Form.Item>
        <Form.Item label={messagingText.send.preview}>
          <MessagePreview title={`${start?.appName ?? ''} · ${start?.tabName ?? ''}`} items={preview} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
