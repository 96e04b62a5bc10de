import { Col, Form, Input, Row, Select, type FormInstance } from 'antd';
import { appTypes, saveAppBody, type AppDetail } from '@release/contract';
import { zh } from '../../../locales/zh-CN.ts';
import { DESCRIPTION_AUTOSIZE } from '../app.constants.ts';
import { contractRule, type AppFormValues } from './app-form.values.ts';
import { BundleIdFields } from './bundle-id-fields.tsx';
import { IconUpload } from './icon-upload.tsx';
import { PathInput } from './path-input.tsx';
import { permitOptions, useAppFormOptions } from './use-app-form-options.ts';

interface AppFormFieldsProps {
  form: FormInstance<AppFormValues>;
  open: boolean;
  canEdit: boolean;
  app: AppDetail | null;
}

const field = saveAppBody.shape;
const half = { xs: 24, md: 12 };

/** SPEC §2 app settings fields; the rules are the contract's, so client and server agree. */
export function AppFormFields({ form, open, canEdit, app }: AppFormFieldsProps) {
  const { categoryOptions, pickUsers, isLoading } = useAppFormOptions(open, canEdit, app);
  const editUserIds = Form.useWatch('editUserIds', form) ?? [];
  const viewUserIds = Form.useWatch('viewUserIds', form) ?? [];
  const permits = permitOptions(pickUsers, editUserIds, viewUserIds);

  return (
    <Row gutter={16}>
      <Col span={24}>
        <Form.Item name="appIcon" label={zh.appForm.icon}>
          <IconUpload disabled={!canEdit} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="appName" label={zh.appForm.appName} required rules={[contractRule(field.appName)]}>
          <Input maxLength={128} autoComplete="off" data-testid="app-name" />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="appType" label={zh.appForm.appType} required rules={[contractRule(field.appType)]}>
          <Select data-testid="app-type" options={appTypes.map((type) => ({ value: type, label: type }))} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="categoryId" label={zh.appForm.category}>
          <Select
            data-testid="app-category"
            loading={isLoading}
            options={categoryOptions}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="password" label={zh.appForm.password} required rules={[contractRule(field.password)]}>
          <Input
            maxLength={10}
            inputMode="numeric"
            autoComplete="off"
            placeholder={zh.appForm.passwordPlaceholder}
            data-testid="app-password"
          />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="path" label={zh.appForm.path} required rules={[contractRule(field.path)]}>
          <PathInput disabled={!canEdit} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="description" label={zh.appForm.description}>
          <Input.TextArea autoSize={DESCRIPTION_AUTOSIZE} maxLength={5000} data-testid="app-description" />
        </Form.Item>
      </Col>
      <BundleIdFields />
      <Col {...half}>
        <Form.Item name="editUserIds" label={zh.appForm.editUsers} extra={zh.appForm.editUsersHint}>
          <Select
            mode="multiple"
            allowClear
            data-testid="app-edit-users"
            options={permits.edit}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="viewUserIds" label={zh.appForm.viewUsers} extra={zh.appForm.viewUsersHint}>
          <Select
            mode="multiple"
            allowClear
            data-testid="app-view-users"
            options={permits.view}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="devWeComUrl" label={zh.appForm.devWeComUrl} rules={[contractRule(field.devWeComUrl)]}>
          <Input
            allowClear
            autoComplete="off"
            placeholder={zh.appForm.webhookPlaceholder}
            data-testid="app-dev-webhook"
          />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="prodWeComUrl" label={zh.appForm.prodWeComUrl} rules={[contractRule(field.prodWeComUrl)]}>
          <Input
            allowClear
            autoComplete="off"
            placeholder={zh.appForm.webhookPlaceholder}
            data-testid="app-prod-webhook"
          />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item
          name="sourceCommitKey"
          label={zh.appForm.sourceCommitKey}
          tooltip={zh.appForm.sourceCommitKeyHint}
          rules={[contractRule(field.sourceCommitKey)]}
        >
          <Input
            allowClear
            autoComplete="off"
            placeholder={zh.appForm.sourceCommitKeyPlaceholder}
            data-testid="app-source-commit-key"
          />
        </Form.Item>
      </Col>
    </Row>
  );
}
