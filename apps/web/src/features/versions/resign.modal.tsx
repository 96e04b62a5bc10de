import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Collapse,
  Empty,
  Form,
  Input,
  Modal,
  Progress,
  Select,
  Space,
  Typography,
} from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  RESIGN_BUNDLE_ID_PATTERN,
  RESIGN_ENTITLEMENTS_MAX,
  RESIGN_VERSION_PATTERN,
  ResignOptionMessages,
  resignStageLabels,
  type ResignOptionsBody,
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

type ResignFormValues = { certId: number } & Record<(typeof TEXT_OPTIONS)[number], string | undefined> &
  Record<(typeof FLAG_OPTIONS)[number], boolean | undefined>;
const TEXT_OPTIONS = ['bundleId', 'displayName', 'version', 'build', 'entitlements'] as const;
const FLAG_OPTIONS = ['removeWatchApp', 'removeExtensions', 'removeSupportedDevices', 'hashesByMinimumOs'] as const;

/** Only what the user filled in or ticked: an empty field keeps the package's own value. */
function optionsOf(values: ResignFormValues): ResignOptionsBody | undefined {
  const options: ResignOptionsBody = {};
  for (const key of TEXT_OPTIONS) {
    const value = values[key]?.trim();
    if (value) options[key] = value;
  }
  for (const key of FLAG_OPTIONS) if (values[key]) options[key] = true;
  return Object.keys(options).length > 0 ? options : undefined;
}

/** SPEC §2 re-sign modal: pick a certificate, POST /api/zsign, follow the job's progress, `version + 重签名成功`. */
export function ResignModal({ version, onClose, onDone }: ResignModalProps) {
  const [form] = Form.useForm<ResignFormValues>();
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
    const values = await form.validateFields();
    setStarting(true);
    setError(null);
    try {
      setJob(await startResign({ certId: values.certId, appVersionId: version.id, options: optionsOf(values) }));
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
          <Collapse
            size="small"
            data-testid="resign-more"
            items={[
              {
                key: 'options',
                label: versionsText.resignMore,
                forceRender: true,
                children: (
                  <>
                    <Form.Item
                      name="bundleId"
                      label={versionsText.resignBundleId}
                      extra={versionsText.resignBundleIdHelp}
                      rules={[
                        { pattern: RESIGN_BUNDLE_ID_PATTERN, message: ResignOptionMessages.bundleId },
                        { max: 155, message: ResignOptionMessages.bundleId },
                      ]}
                    >
                      <Input placeholder={versionsText.resignKeep} data-testid="resign-bundle-id" />
                    </Form.Item>
                    <Form.Item
                      name="displayName"
                      label={versionsText.resignDisplayName}
                      rules={[{ max: 64, message: ResignOptionMessages.displayName }]}
                    >
                      <Input placeholder={versionsText.resignKeep} data-testid="resign-display-name" />
                    </Form.Item>
                    <Space wrap>
                      <Form.Item
                        name="version"
                        label={versionsText.resignVersion}
                        rules={[{ pattern: RESIGN_VERSION_PATTERN, message: ResignOptionMessages.version }]}
                      >
                        <Input placeholder={versionsText.resignKeep} data-testid="resign-version" />
                      </Form.Item>
                      <Form.Item
                        name="build"
                        label={versionsText.resignBuild}
                        rules={[{ pattern: RESIGN_VERSION_PATTERN, message: ResignOptionMessages.build }]}
                      >
                        <Input placeholder={versionsText.resignKeep} data-testid="resign-build" />
                      </Form.Item>
                    </Space>
                    <Form.Item
                      name="entitlements"
                      label={versionsText.resignEntitlements}
                      extra={versionsText.resignEntitlementsHelp}
                      rules={[{ max: RESIGN_ENTITLEMENTS_MAX, message: ResignOptionMessages.entitlements }]}
                    >
                      <Input.TextArea
                        rows={3}
                        placeholder={versionsText.resignEntitlementsPlaceholder}
                        data-testid="resign-entitlements"
                      />
                    </Form.Item>
                    {FLAG_OPTIONS.map((key) => (
                      <Form.Item key={key} name={key} valuePropName="checked" style={{ marginBottom: 4 }}>
                        <Checkbox data-testid={`resign-${key}`}>
                          {
                            {
                              removeWatchApp: versionsText.resignRemoveWatchApp,
                              removeExtensions: versionsText.resignRemoveExtensions,
                              removeSupportedDevices: versionsText.resignRemoveSupportedDevices,
                              hashesByMinimumOs: versionsText.resignHashesByMinimumOs,
                            }[key]
                          }
                        </Checkbox>
                      </Form.Item>
                    ))}
                  </>
                ),
              },
            ]}
          />
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
