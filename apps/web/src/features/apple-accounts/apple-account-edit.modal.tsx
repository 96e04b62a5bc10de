import { Button, Form, Input, Modal, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import type { AppleAccountRow } from '@release/contract';
import { addAppleAccount, updateAppleAccount } from '../../api/apple-accounts.api.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
import { appleAccountText as t } from './apple-account.strings.ts';

interface AccountValues {
  name: string;
  issuerId: string;
  keyId: string;
  p8?: UploadFile[];
  remark?: string;
}

const fileList = (event: { fileList: UploadFile[] } | UploadFile[]) => (Array.isArray(event) ? event : event.fileList);

/** The .p8 is read here and sent as text; the server tries it with Apple before keeping it. */
async function p8Text(list: UploadFile[] | undefined): Promise<string | undefined> {
  const file = list?.[0]?.originFileObj as File | undefined;
  return file ? file.text() : undefined;
}

/** 添加苹果账号 / 编辑苹果账号: issuer id, key id and the .p8 (on edit, only when replacing it). */
export function AppleAccountEditModal({
  open,
  account,
  onClose,
  onSaved,
}: {
  open: boolean;
  account: AppleAccountRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<AccountValues>();
  useResetOnOpen(form, open, account, (a) => ({
    name: a.name,
    issuerId: a.issuerId,
    keyId: a.keyId,
    remark: a.remark,
  }));
  const action = useSaveAction({
    form,
    successText: account ? undefined : t.added,
    save: async (values) => {
      const privateKey = await p8Text(values.p8);
      const common = {
        name: values.name.trim(),
        issuerId: values.issuerId.trim(),
        keyId: values.keyId.trim(),
        remark: values.remark?.trim() ?? '',
      };
      if (account) return updateAppleAccount({ id: account.id, ...common, privateKey });
      return addAppleAccount({ ...common, privateKey: privateKey ?? '' });
    },
    onSaved,
  });

  return (
    <Modal
      title={account ? t.editTitle : t.addTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      okButtonProps={{ 'data-testid': 'apple-account-submit' }}
      forceRender
      width="min(560px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid="apple-account-modal">
        <Form.Item
          name="name"
          label={t.fields.name}
          rules={[{ required: true, whitespace: true, message: t.fields.nameRequired }]}
        >
          <Input maxLength={64} data-testid="apple-account-name" />
        </Form.Item>
        <Form.Item
          name="issuerId"
          label={t.fields.issuerId}
          extra={t.fields.issuerIdHint}
          rules={[{ required: true, whitespace: true, message: t.fields.issuerIdRequired }]}
        >
          <Input autoComplete="off" spellCheck={false} data-testid="apple-account-issuer" />
        </Form.Item>
        <Form.Item
          name="keyId"
          label={t.fields.keyId}
          rules={[{ required: true, whitespace: true, message: t.fields.keyIdRequired }]}
        >
          <Input autoComplete="off" spellCheck={false} maxLength={10} data-testid="apple-account-key-id" />
        </Form.Item>
        <Form.Item
          name="p8"
          label={t.fields.p8}
          extra={account ? t.fields.p8Keep : undefined}
          valuePropName="fileList"
          getValueFromEvent={fileList}
          rules={account ? [] : [{ required: true, type: 'array', min: 1, message: t.fields.p8Required }]}
        >
          <Upload accept=".p8" maxCount={1} beforeUpload={() => false} data-testid="apple-account-p8">
            <Button icon={<UploadOutlined />}>{t.fields.p8Pick}</Button>
          </Upload>
        </Form.Item>
        <Form.Item name="remark" label={t.fields.remark}>
          <Input.TextArea maxLength={200} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
