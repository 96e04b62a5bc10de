import { Form, Input, Modal, Radio, Typography } from 'antd';
import { NAME_MAX_LENGTH, type CreatedApiToken } from '@release/contract';
import { createApiToken } from '../../api/api-tokens.api.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
import { zh } from '../../locales/zh-CN.ts';
import { DEFAULT_TOKEN_EXPIRY, TOKEN_EXPIRY_CHOICES } from './token-status.ts';

/** Radio values cannot be null: 0 stands for 永不过期. */
const NEVER = 0;

interface TokenFormValues {
  name: string;
  expireDays: number;
}

interface TokenCreateModalProps {
  open: boolean;
  /** Another user's id and name when an admin creates a token for them; null: for oneself. */
  owner: { userId: number; username: string } | null;
  onClose: () => void;
  onCreated: (token: CreatedApiToken) => void;
}

/** 新建令牌: a name and a lifetime (30, 90, 365 days or 永不过期). */
export function TokenCreateModal({ open, owner, onClose, onCreated }: TokenCreateModalProps) {
  const [form] = Form.useForm<TokenFormValues>();
  useResetOnOpen<TokenFormValues, never>(
    form,
    open,
    null,
    () => ({}),
    () => ({ expireDays: DEFAULT_TOKEN_EXPIRY ?? NEVER }),
  );
  const action = useSaveAction({
    form,
    save: (values) =>
      createApiToken({
        name: values.name.trim(),
        expireDays: values.expireDays === NEVER ? undefined : values.expireDays,
        userId: owner?.userId,
      }),
    onSaved: onCreated,
    successText: zh.apiTokens.created,
  });

  return (
    <Modal
      title={zh.apiTokens.addTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      okText={zh.apiTokens.create}
      okButtonProps={{ 'data-testid': 'token-create-submit' }}
      forceRender
      width="min(480px, calc(100vw - 32px))"
    >
      {owner ? (
        <Typography.Paragraph type="warning" data-testid="token-owner">
          {zh.apiTokens.addFor(owner.username)}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} layout="vertical" data-testid="token-modal" onFinish={action.submit}>
        <Form.Item
          name="name"
          label={zh.apiTokens.name}
          rules={[{ required: true, whitespace: true, message: zh.apiTokens.nameRequired }]}
        >
          <Input
            maxLength={NAME_MAX_LENGTH}
            placeholder={zh.apiTokens.namePlaceholder}
            autoComplete="off"
            data-testid="token-name"
          />
        </Form.Item>
        <Form.Item name="expireDays" label={zh.apiTokens.expiry}>
          <Radio.Group
            optionType="button"
            data-testid="token-expiry"
            options={TOKEN_EXPIRY_CHOICES.map((days) => ({
              value: days ?? NEVER,
              label: days === null ? zh.apiTokens.never : zh.apiTokens.days(days),
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
