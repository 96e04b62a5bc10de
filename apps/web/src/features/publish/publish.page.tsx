import { useEffect, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Radio, Select, Spin, Tooltip, Typography, type UploadFile } from 'antd';
import { CloudUploadOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { RoutePath, type AppVersionRow, type UploadAppBody } from '@release/contract';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { StandalonePage } from '../../app/components/standalone-page.tsx';
import { useIsAdmin } from '../../app/session.store.ts';
import { AppIcon } from '../apps/app-icon.tsx';
import { AttachmentPicker, fileOf, PackageDropzone } from './publish-files.tsx';
import { PublishProgress } from './publish-progress.tsx';
import { publishText } from './publish.strings.ts';
import { useEditableApps } from './use-editable-apps.ts';
import { usePublishJob } from './use-publish-job.ts';

export { PublishSuccessPage } from './publish-success.page.tsx';

type ChatChoice = 'DevTest' | 'PreFavTest' | 'none';

interface PublishValues {
  appId?: number;
  package: UploadFile[];
  attachments: UploadFile[];
  description: string;
  chatEnv: ChatChoice;
}

const NOTE_AUTOSIZE = { minRows: 3, maxRows: 10 } as const;
const initialValues: PublishValues = { package: [], attachments: [], description: '', chatEnv: 'DevTest' };

function toChatEnv(choice: ChatChoice): UploadAppBody['chatEnv'] {
  return choice === 'none' ? null : choice;
}

/** /publish (a new window): pick the app, drop the package, upload in parts, register the version. */
export function PublishPage() {
  const [form] = Form.useForm<PublishValues>();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const isAdmin = useIsAdmin();
  const apps = useEditableApps();
  const publish = usePublishJob();
  const queryAppId = Number(searchParams.get('appId'));

  useEffect(() => {
    const list = apps.data;
    if (!list || form.getFieldValue('appId') !== undefined) return;
    const preselected = list.find((a) => a.appId === queryAppId) ?? (list.length === 1 ? list[0] : undefined);
    if (preselected) form.setFieldValue('appId', preselected.appId);
  }, [apps.data, queryAppId, form]);

  const submit = async (): Promise<void> => {
    let values: PublishValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // Each field shows its first message.
    }
    const [file, ...modules] = values.package.map(fileOf).filter((f): f is File => f !== null);
    if (!file || values.appId === undefined) return;
    const attachments = values.attachments.map(fileOf).filter((f): f is File => f !== null);
    const meta = { appId: values.appId, description: values.description.trim(), chatEnv: toChatEnv(values.chatEnv) };
    showSuccess(await publish.run({ file, modules, attachments }, meta));
  };

  const showSuccess = (version: AppVersionRow | null): void => {
    if (!version) return;
    const query = new URLSearchParams({ appId: String(version.appId), versionId: String(version.id) });
    void navigate(`${RoutePath.publishSuccess}?${query.toString()}`, { state: { version } });
  };

  let body: ReactNode;
  if (apps.isPending) body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (apps.isError)
    body = <Alert type="error" showIcon title={publishText.appsError} description={apps.error.message} />;
  else if (apps.data.length === 0)
    body = (
      <FeatureEmpty
        title={publishText.noApps}
        content={isAdmin ? publishText.noAppsContent.admin : publishText.noAppsContent.user}
        testId="publish-no-apps"
      />
    );
  else {
    body = (
      <Form<PublishValues>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        disabled={publish.busy}
        onValuesChange={(changed: Partial<PublishValues>) => {
          // Other files: a retry would resume the old ones, so start afresh.
          if (changed.package || changed.attachments) publish.reset();
        }}
      >
        <Form.Item name="appId" label={publishText.app} rules={[{ required: true, message: publishText.appRequired }]}>
          <Select
            data-testid="publish-app-select"
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={publishText.appPlaceholder}
            options={apps.data.map((app) => ({
              value: app.appId,
              label: app.appName,
              icon: <AppIcon app={app} size={20} />,
            }))}
            optionRender={(option) => (
              <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
                {option.data.icon}
                {option.data.label}
              </span>
            )}
          />
        </Form.Item>
        <Form.Item
          name="package"
          label={publishText.package}
          rules={[{ required: true, type: 'array', min: 1, message: publishText.packageRequired }]}
        >
          <PackageDropzone />
        </Form.Item>
        <Form.Item name="attachments" label={publishText.attachments} extra={publishText.attachmentsHint}>
          <AttachmentPicker />
        </Form.Item>
        <Form.Item name="description" label={publishText.note}>
          <Input.TextArea
            data-testid="publish-note"
            autoSize={NOTE_AUTOSIZE}
            maxLength={20_000}
            placeholder={publishText.notePlaceholder}
          />
        </Form.Item>
        <Form.Item name="chatEnv" label={publishText.chatEnv}>
          <Radio.Group data-testid="publish-chat-env">
            <Radio value="DevTest">{publishText.chatEnvs.DevTest}</Radio>
            <Tooltip title={isAdmin ? undefined : publishText.preFavAdminOnly}>
              <Radio value="PreFavTest" disabled={isAdmin ? undefined : true}>
                {publishText.chatEnvs.PreFavTest}
              </Radio>
            </Tooltip>
            <Radio value="none">{publishText.chatEnvs.none}</Radio>
          </Radio.Group>
        </Form.Item>
      </Form>
    );
  }
  const ready = apps.data !== undefined && apps.data.length > 0;

  return (
    <StandalonePage>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {publishText.title}
      </Typography.Title>
      {body}
      {ready && (
        <>
          {/* Outside the form: the form is disabled while uploading, 取消 must not be. */}
          <PublishProgress
            state={publish.state}
            onCancel={publish.cancel}
            onRetry={() => void submit()}
            onConfirm={() => void publish.confirmOtherBundleId().then(showSuccess)}
          />
          <Button
            type="primary"
            block
            size="large"
            icon={<CloudUploadOutlined />}
            loading={publish.busy}
            disabled={publish.state.phase === 'done'}
            onClick={() => void submit()}
            data-testid="publish-submit"
          >
            {publishText.submit}
          </Button>
        </>
      )}
    </StandalonePage>
  );
}
