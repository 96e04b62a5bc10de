import { Form, Input, Modal, Popconfirm, Radio, Select, Space, Switch, Typography } from 'antd';
import { contentTypes, WorkflowMessages, type AppType, type WorkflowRow } from '@release/contract';
import { isApiError } from '../../api/api-error.ts';
import { createWorkflow, updateWorkflow, type WorkflowInput } from '../../api/workflows.api.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
import { toast } from '../../app/feedback.ts';
import { useWorkflowUsers } from './use-workflows.ts';
import {
  createWorkflowValues,
  needsRepoPath,
  needsSource,
  packageTypeChoices,
  toWorkflowBody,
  valuesForCategory,
  workflowValuesOf,
  type ContentType,
  type WorkflowFormValues,
} from './workflow-form.values.ts';
import { WorkflowWebhook } from './workflow-webhook.tsx';
import { workflowsText } from './workflows.strings.ts';

const text = workflowsText.modal;
const repoTypeChoices = ['git', 'svn', 'other'] as const;
const customTypeChoices = ['JPS', 'JPS_GAME', 'wiki', 'other'] as const;

interface WorkflowFormModalProps {
  open: boolean;
  appId: number;
  appType: AppType;
  /** null: adding a workflow. */
  record: WorkflowRow | null;
  onClose: () => void;
  /** The saved workflow's id and what was sent (a new git or svn workflow is synced right away). */
  onSaved: (id: number, body: WorkflowInput) => void;
}

/** Under a stored signing secret: 清除已保存的密钥 (confirmed, done by the save), or the pending removal with 撤销. */
function StoredSecretExtra({ clearing, onClear }: { clearing: boolean; onClear: (clear: boolean) => void }) {
  if (clearing) {
    return (
      <Space size={8} data-testid="workflow-robot-secret-clearing">
        <span>{text.robotSecretClearing}</span>
        <Typography.Link onClick={() => onClear(false)}>{text.robotSecretClearUndo}</Typography.Link>
      </Space>
    );
  }
  return (
    <Space size={8} wrap>
      <span>{text.robotSecretKept}</span>
      <Popconfirm
        title={text.robotSecretClearConfirm}
        description={text.robotSecretClearHint}
        okText={text.robotSecretClearOk}
        onConfirm={() => onClear(true)}
        okButtonProps={{ danger: true }}
      >
        <Typography.Link data-testid="workflow-robot-secret-clear">{text.robotSecretClear}</Typography.Link>
      </Popconfirm>
    </Space>
  );
}

/** 添加工作流 / 编辑工作流 with the validation messages of SPEC §5. */
export function WorkflowFormModal({ open, appId, appType, record, onClose, onSaved }: WorkflowFormModalProps) {
  const [form] = Form.useForm<WorkflowFormValues>();
  useResetOnOpen(form, open, record, workflowValuesOf, createWorkflowValues);
  // Listed rows tell editors whether a signing secret is stored, never the secret itself.
  const hasRobotSecret = Boolean((record as { hasRobotSecret?: boolean } | null)?.hasRobotSecret);
  const clearRobotSecret = Form.useWatch('clearRobotSecret', { form, preserve: true }) === true;
  const contentType = Form.useWatch('contentType', form) ?? 'default';
  const repoType = Form.useWatch('repoType', form) ?? null;
  const manageType = Form.useWatch('manageType', form) ?? null;
  const users = useWorkflowUsers(open);
  const action = useSaveAction({
    form,
    save: async () => {
      // Hidden fields (manageType of a repository) are not in validateFields' answer: read them all.
      const values: WorkflowFormValues = { ...createWorkflowValues(), ...form.getFieldsValue(true) };
      const body = toWorkflowBody(values, appId);
      if (record) {
        await updateWorkflow({ ...body, id: record.id }, true);
        return { id: record.id, body };
      }
      return { id: (await createWorkflow(body, true)).id, body };
    },
    onSaved: (saved) => onSaved(saved.id, saved.body),
    // A refused 仓库地址 (one this server cannot read) is shown under the field, as the form's own messages are.
    onError: (error) => {
      if (!isApiError(error) || error.kind === 'expired' || error.kind === 'forbidden' || error.kind === 'canceled')
        return;
      if ((error.body?.data as { field?: unknown } | null)?.field === 'repoPath')
        form.setFields([{ name: 'repoPath', errors: [error.message] }]);
      else toast.error(error.message);
    },
    successText: record ? workflowsText.saved : workflowsText.created,
  });

  return (
    <Modal
      title={record ? text.editTitle : text.addTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      okButtonProps={{ 'data-testid': 'workflow-save' }}
      forceRender
      width="min(600px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid="workflow-modal" onFinish={action.submit}>
        <Form.Item
          name="tabName"
          label={text.name}
          rules={[{ required: true, whitespace: true, message: WorkflowMessages.nameRequired }]}
        >
          <Input maxLength={64} placeholder={text.namePlaceholder} autoComplete="off" data-testid="workflow-name" />
        </Form.Item>
        <Form.Item
          name="contentType"
          label={text.category}
          rules={[{ required: true, message: WorkflowMessages.categoryRequired }]}
        >
          <Radio.Group
            optionType="button"
            data-testid="workflow-category"
            options={contentTypes.map((value) => ({ value, label: text.categories[value] }))}
            onChange={(event) => form.setFieldsValue(valuesForCategory(event.target.value as ContentType))}
          />
        </Form.Item>
        {contentType === 'default' ? (
          <>
            <Form.Item
              name="repoType"
              label={text.repoType}
              rules={[{ required: true, message: WorkflowMessages.repoTypeRequired }]}
            >
              <Select
                data-testid="workflow-repo-type"
                options={repoTypeChoices.map((value) => ({ value, label: text.repoTypes[value] }))}
              />
            </Form.Item>
            {needsRepoPath({ contentType, repoType }) ? (
              <Form.Item
                name="repoPath"
                label={text.repoPath}
                rules={[{ required: true, whitespace: true, message: WorkflowMessages.repoPathRequired }]}
              >
                <Input
                  maxLength={1024}
                  placeholder={text.repoPathPlaceholder}
                  autoComplete="off"
                  data-testid="workflow-repo-path"
                />
              </Form.Item>
            ) : null}
            <Form.Item name="defaultBranch" label={text.branches} extra={text.branchesPlaceholder}>
              <Input
                maxLength={1000}
                placeholder={text.branchesEmpty}
                autoComplete="off"
                data-testid="workflow-branches"
              />
            </Form.Item>
            <Form.Item name="committers" label={text.committers}>
              <Select
                mode="tags"
                placeholder={text.committersPlaceholder}
                loading={users.isFetching}
                options={(users.data ?? []).map((name) => ({ value: name, label: name }))}
                tokenSeparators={[',', '，']}
                data-testid="workflow-committers"
              />
            </Form.Item>
          </>
        ) : null}
        {contentType === 'custom' ? (
          <Form.Item
            name="manageType"
            label={text.type}
            rules={[{ required: true, message: WorkflowMessages.typeRequired }]}
          >
            <Select
              data-testid="workflow-type"
              options={customTypeChoices.map((value) => ({ value, label: text.types[value] }))}
            />
          </Form.Item>
        ) : null}
        {needsSource({ contentType, manageType }) ? (
          <Form.Item
            name="enterpriseName"
            label={text.source}
            extra={text.sourceHint}
            rules={[{ required: true, whitespace: true, message: WorkflowMessages.sourceRequired }]}
          >
            <Input
              maxLength={128}
              placeholder={text.sourcePlaceholder}
              autoComplete="off"
              data-testid="workflow-source"
            />
          </Form.Item>
        ) : null}
        {contentType === 'package' ? (
          <Form.Item
            name="packageType"
            label={text.packageType}
            rules={[{ required: true, message: WorkflowMessages.packageTypeRequired }]}
          >
            <Select
              data-testid="workflow-package-type"
              options={packageTypeChoices(appType).map((value) => ({ value, label: text.packageTypes[value] }))}
            />
          </Form.Item>
        ) : null}
        <Form.Item name="robotUrl" label={text.robotUrl} rules={[{ type: 'url', message: text.robotUrlInvalid }]}>
          <Input
            maxLength={1024}
            placeholder={text.robotUrlPlaceholder}
            autoComplete="off"
            data-testid="workflow-robot-url"
          />
        </Form.Item>
        <Form.Item
          name="robotSecret"
          label={text.robotSecret}
          extra={
            hasRobotSecret ? (
              <StoredSecretExtra
                clearing={clearRobotSecret}
                onClear={(clear) => form.setFieldValue('clearRobotSecret', clear)}
              />
            ) : (
              text.robotSecretHint
            )
          }
        >
          <Input.Password
            maxLength={128}
            placeholder={hasRobotSecret ? text.robotSecretSet : text.robotSecretPlaceholder}
            autoComplete="new-password"
            data-testid="workflow-robot-secret"
          />
        </Form.Item>
        <Form.Item name="autoPush" label={text.autoPush} valuePropName="checked" extra={text.autoPushHint}>
          <Switch data-testid="workflow-auto-push" />
        </Form.Item>
        {record ? (
          <WorkflowWebhook row={record} kind={contentType === 'default' && repoType === 'git' ? 'git' : 'push'} />
        ) : null}
        {!record && (contentType === 'custom' || (contentType === 'default' && repoType !== 'svn')) ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {workflowsText.webhook.afterSave}
          </Typography.Text>
        ) : null}
      </Form>
    </Modal>
  );
}
