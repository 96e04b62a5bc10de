import { Button, Form, Input, Modal, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { CERT_MAX_PROFILES } from '@release/contract';
import { uploadCertificate, uploadHarmonyCertificate } from '../../api/certificates.api.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
import { certificationText as t } from './certification.strings.ts';

interface UploadValues {
  p12: UploadFile[];
  password: string;
  profiles: UploadFile[];
}

const fileList = (event: { fileList: UploadFile[] } | UploadFile[]) => (Array.isArray(event) ? event : event.fileList);
const filesOf = (list: UploadFile[] | undefined) =>
  (list ?? []).flatMap((file) => (file.originFileObj ? [file.originFileObj as File] : []));

/**
 * 上传证书: a .p12, its password and one or more provisioning profiles; the server checks that they belong together.
 * For HarmonyOS (`harmony`) the .p12 and its password only (test ids prefixed `harmony-`).
 */
export function CertificateUploadModal({
  open,
  onClose,
  onUploaded,
  harmony = false,
}: {
  open: boolean;
  onClose: () => void;
  onUploaded: () => void;
  harmony?: boolean;
}) {
  const id = (name: string) => (harmony ? `harmony-${name}` : name);
  const [form] = Form.useForm<UploadValues>();
  useResetOnOpen(form, open, null, () => ({}));
  const action = useSaveAction({
    form,
    successText: t.uploaded,
    save: (values): Promise<unknown> => {
      const p12 = filesOf(values.p12)[0] as File;
      return harmony
        ? uploadHarmonyCertificate({ p12, password: values.password })
        : uploadCertificate({ p12, password: values.password, profiles: filesOf(values.profiles) });
    },
    onSaved: onUploaded,
  });

  return (
    <Modal
      title={harmony ? t.harmony.uploadTitle : t.uploadTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      okText={t.uploadOk}
      okButtonProps={{ 'data-testid': id('cert-upload-submit') }}
      forceRender
      width="min(560px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid={id('cert-upload-modal')}>
        <Form.Item
          name="p12"
          label={t.p12}
          valuePropName="fileList"
          getValueFromEvent={fileList}
          rules={[{ required: true, message: t.p12Required }]}
        >
          <Upload accept=".p12,.pfx" maxCount={1} beforeUpload={() => false}>
            <Button icon={<UploadOutlined />}>{t.p12Pick}</Button>
          </Upload>
        </Form.Item>
        <Form.Item
          name="password"
          label={t.password}
          extra={harmony ? t.harmony.passwordHint : t.passwordHint}
          rules={[{ required: true, message: t.passwordRequired }]}
        >
          <Input.Password autoComplete="new-password" data-testid={id('cert-password')} />
        </Form.Item>
        {harmony ? null : (
          <Form.Item
            name="profiles"
            label={t.profiles}
            extra={t.profilesHint}
            valuePropName="fileList"
            getValueFromEvent={fileList}
            rules={[{ required: true, type: 'array', min: 1, message: t.profilesRequired }]}
          >
            <Upload accept=".mobileprovision" multiple maxCount={CERT_MAX_PROFILES} beforeUpload={() => false}>
              <Button icon={<UploadOutlined />}>{t.profilesPick}</Button>
            </Upload>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
