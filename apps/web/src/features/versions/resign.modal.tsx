import { useEffect, useState } from 'react';
import { Alert, Button, Empty, Form, Modal, Progress, Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  resignStageLabels,
  ZsignMessages,
  type AppVersionRow,
  type ZsignCertificate,
  type ZsignJob,
} from '@release/contract';
import { ApiError } from '../../api/api-error.ts';
import { fetchResignCertificates, fetchResignJob, startResign } from '../../api/zsign.api.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { formatBytes, versionTitle } from './version-format.ts';
import { versionsText } from './versions.strings.ts';

interface ResignModalProps {
  /** The ipa version to re-sign; null keeps the modal closed. */
  version: AppVersionRow | null;
  onClose: () => void;
  /** A new version was made (the list should show it). */
  onDone: () => void;
}

/** Whether a profile app id (`TEAM.com.acme.app`, `TEAM.*`, `TEAM.com.acme.*`) covers the bundle id. */
function covers(appId: string, bundleId: string | null): boolean {
  if (!bundleId) return false;
  const id = appId.slice(appId.indexOf('.') + 1);
  return id === bundleId || id === '*' || (id.endsWith('.*') && bundleId.startsWith(id.slice(0, -1)));
}

/** `name（包含此应用的描述文件）`, with 已过期 first when it is. */
function certificateLabel(cert: ZsignCertificate, bundleId: string | null): string {
  const fits = cert.appIds.some((appId) => covers(appId, bundleId));
  const expired = cert.expireTime <= Date.now() ? `${versionsText.resignExpired} · ` : '';
  return `${cert.name}（${expired}${fits ? versionsText.resignCovers : versionsText.resignNotCovering}）`;
}

/** SPEC §2 re-sign modal: pick a certificate, POST /api/zsign, follow the job's progress, `version + 重签名成功`. */
export function ResignModal({ version, onClose, onDone }: ResignModalProps) {
  const [form] = Form.useForm<{ certId: number }>();
  const [job, setJob] = useState<ZsignJob | null>(null);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = version !== null;
  const certificates = useQuery({
    queryKey: ['zsign-certs'],
    queryFn: ({ signal }) => fetchResignCertificates(signal),
    enabled: open,
  });
  const polling = job !== null && (job.status === 'pending' || job.status === 'running');
  const polled = useQuery({
    queryKey: ['zsign-job', job?.id],
    queryFn: ({ signal }) => fetchResignJob(job!.id, signal),
    enabled: polling,
    refetchInterval: 1000,
  });

  useEffect(() => {
    if (polled.data && polled.data.id === job?.id && polled.data !== job) setJob(polled.data);
  }, [polled.data, job]);

  useEffect(() => {
    if (!open) {
      setJob(null);
      setError(null);
      form.resetFields();
    }
  }, [open, form]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only the end of a job matters here
  useEffect(() => {
    if (job?.status === 'done' && job.version) {
      toast.success(ZsignMessages.success(versionTitle(job.version)));
      onDone();
    } else if (job?.status === 'failed') {
      setError(job.error ?? ZsignMessages.failed);
    }
    // Only the end of a job matters here.
  }, [job?.status]);

  const start = async (): Promise<void> => {
    if (!version || starting) return;
    const { certId } = await form.validateFields();
    setStarting(true);
    setError(null);
    try {
      setJob(await startResign({ certId, appVersionId: version.id }));
    } catch (caught) {
      setError(caught instanceof ApiError && caught.message ? caught.message : zh.common.networkError);
    } finally {
      setStarting(false);
    }
  };

  const running = starting || polling;
  const percent = job?.progress ?? 0;
  const options = (certificates.data ?? []).map((cert) => ({
    value: cert.id,
    label: certificateLabel(cert, version?.bundleId ?? null),
  }));
  const noCertificates = certificates.isSuccess && options.length === 0;

  return (
    <Modal
      open={open}
      title={versionsText.resignTitle}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose} data-testid="resign-close">
            {running ? versionsText.resignClose : zh.common.cancel}
          </Button>
          <Button
            type="primary"
            loading={running}
            disabled={noCertificates || job?.status === 'done'}
            onClick={() => void start()}
            data-testid="resign-start"
          >
            {error ? versionsText.resignRetry : versionsText.resignOk}
          </Button>
        </Space>
      }
    >
      {version && (
        <Typography.Paragraph type="secondary">
          #{version.indexNo} · {versionTitle(version)} · {version.bundleId ?? version.fileName}
        </Typography.Paragraph>
      )}
      <Typography.Paragraph>{versionsText.resignIntro}</Typography.Paragraph>
      {noCertificates ? (
        <Empty description={versionsText.resignUnavailable} />
      ) : (
        <Form form={form} layout="vertical" disabled={running}>
          <Form.Item
            name="certId"
            label={versionsText.resignCertificate}
            rules={[{ required: true, message: versionsText.resignCertificateRequired }]}
          >
            <Select
              options={options}
              loading={certificates.isLoading}
              placeholder={versionsText.resignCertificateRequired}
              data-testid="resign-certificate"
            />
          </Form.Item>
        </Form>
      )}
      {(running || job) && (
        <div data-testid="resign-progress" data-percent={percent} style={{ marginTop: 16 }}>
          <Typography.Text>{job ? resignStageLabels[job.stage] : versionsText.resignRunning}</Typography.Text>
          {polling && job && job.bytesTotal > 0 && (
            <Typography.Text type="secondary" data-testid="resign-bytes" style={{ marginLeft: 8 }}>
              {versionsText.resignBytes(formatBytes(job.bytesDone), formatBytes(job.bytesTotal))}
            </Typography.Text>
          )}
          <Progress
            percent={percent}
            status={job?.status === 'failed' ? 'exception' : job?.status === 'done' ? 'success' : 'active'}
          />
          {polling && <Typography.Text type="secondary">{versionsText.resignBackground}</Typography.Text>}
        </div>
      )}
      {job?.status === 'done' && job.version && (
        <Alert
          type="success"
          showIcon
          message={ZsignMessages.success(versionTitle(job.version))}
          data-testid="resign-done"
        />
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          message={versionsText.resignFailed}
          description={error}
          data-testid="resign-error"
          style={{ marginTop: 12 }}
        />
      )}
    </Modal>
  );
}
