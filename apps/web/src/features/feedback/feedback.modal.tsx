import { useEffect, useState } from 'react';
import { Alert, Button, Flex, Input, Modal, Progress, Typography, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FEEDBACK_TEXT_MAX, FeedbackMessages, type AppVersionRow } from '@release/contract';
import { fetchFeedbackSettings } from '../../api/feedback.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { toast } from '../../app/feedback.ts';
import { readSession } from '../../app/session.store.ts';
import { zh } from '../../locales/zh-CN.ts';
import { versionTitle } from '../versions/version-format.ts';
import { filesProblem, readDevice, sendFeedback } from './feedback-send.ts';
import { feedbackText } from './feedback.strings.ts';

const TEXT_AUTOSIZE = { minRows: 4, maxRows: 10 } as const;
const MB = 1024 * 1024;

interface FeedbackModalProps {
  /** The build the feedback is about; null keeps the modal closed. */
  version: AppVersionRow | null;
  /** The app's download path: the feedback goes through the install page's own endpoint, as a signed-in member. */
  appPath: string;
  onClose: () => void;
}

/**
 * 反馈问题 on a row of 安装包 (issue 20): a signed-in member sends feedback on that exact build — text, up to 5
 * screenshots or a recording, the device read from this browser — and it becomes a bug of the app's tracker, as from
 * the install page. An app that takes no feedback says so before anything is typed.
 */
export function FeedbackModal({ version, appPath, onClose }: FeedbackModalProps) {
  const queryClient = useQueryClient();
  const appId = version?.appId ?? 0;
  const settings = useQuery({
    queryKey: queryKeys.feedbackSettings(appId),
    queryFn: ({ signal }) => fetchFeedbackSettings(appId, signal),
    enabled: version !== null,
    refetchOnMount: 'always',
  });
  const [text, setText] = useState('');
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [device, setDevice] = useState({ model: '', os: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  useEffect(() => void readDevice().then(setDevice), []);
  // The dialog stays mounted once opened: each build starts with an empty form and the setting read afresh.
  const versionId = version?.id;
  useEffect(() => {
    if (versionId === undefined) return;
    setText('');
    setFiles([]);
    setProblem(null);
  }, [versionId]);
  const closed = settings.data?.enabled === false;
  const chosen = files.map((f) => f.originFileObj).filter((f): f is NonNullable<typeof f> => Boolean(f));

  const submit = async (): Promise<void> => {
    if (!version || progress !== null) return;
    const trimmed = text.trim();
    const refusal = !trimmed
      ? FeedbackMessages.textRequired
      : trimmed.length > FEEDBACK_TEXT_MAX
        ? FeedbackMessages.textTooLong
        : filesProblem(chosen);
    setProblem(refusal);
    if (refusal) return;
    setProgress(0);
    const failed = await sendFeedback(
      { path: appPath, versionId: version.id, text: trimmed, device, files: chosen, fromConsole: true },
      { token: readSession().token },
      setProgress,
      zh.common.networkError,
    );
    setProgress(null);
    if (failed) {
      setProblem(failed);
      // Turned off meanwhile: the notice replaces the form.
      if (failed === FeedbackMessages.disabled) void settings.refetch();
      return;
    }
    toast.success(FeedbackMessages.sent);
    void queryClient.invalidateQueries({ queryKey: queryKeys.tasks(version.appId) });
    onClose();
  };

  const busy = progress !== null;
  return (
    <Modal
      open={version !== null}
      title={feedbackText.title}
      okText={feedbackText.send}
      cancelText={zh.common.cancel}
      confirmLoading={busy}
      okButtonProps={{ disabled: closed || settings.isPending, 'data-testid': 'feedback-send' }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={12} data-testid="feedback-modal">
        {version && (
          <Typography.Text type="secondary">
            {feedbackText.about(`#${version.indexNo} ${versionTitle(version)}`)}
          </Typography.Text>
        )}
        {closed ? (
          <Alert type="warning" showIcon title={FeedbackMessages.disabled} data-testid="feedback-closed" />
        ) : (
          <>
            <Input.TextArea
              autoSize={TEXT_AUTOSIZE}
              maxLength={FEEDBACK_TEXT_MAX}
              showCount
              placeholder={feedbackText.placeholder}
              value={text}
              onChange={(e) => setText(e.target.value)}
              data-testid="feedback-text"
            />
            <Flex vertical gap={4}>
              <Upload
                accept="image/*,video/*"
                multiple
                fileList={files}
                beforeUpload={() => false}
                onChange={({ fileList }) => {
                  const next = fileList.map((f) => f.originFileObj).filter((f): f is NonNullable<typeof f> => !!f);
                  const refusal = filesProblem(next);
                  setProblem(refusal);
                  if (!refusal) setFiles(fileList);
                }}
                itemRender={(node, file) => (
                  <Flex align="center" gap={8} data-testid="feedback-file">
                    <div style={{ flex: 1, minWidth: 0 }}>{node}</div>
                    <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                      {((file.size ?? 0) / MB).toFixed(1)} MB
                    </Typography.Text>
                  </Flex>
                )}
              >
                <Button icon={<UploadOutlined />} data-testid="feedback-pick">
                  {feedbackText.choose}
                </Button>
              </Upload>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {feedbackText.filesHint}
              </Typography.Text>
            </Flex>
            <Typography.Text type="secondary" data-testid="feedback-device">
              {feedbackText.device}：
              {[device.model, device.os].filter(Boolean).join(' · ') || feedbackText.deviceGuessed}
            </Typography.Text>
          </>
        )}
        {problem && !closed && <Alert type="error" showIcon title={problem} data-testid="feedback-problem" />}
        {busy && <Progress percent={progress} size="small" aria-label={feedbackText.uploading(progress)} />}
      </Flex>
    </Modal>
  );
}
