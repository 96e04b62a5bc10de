import { useState } from 'react';
import { Alert, Form, List, Modal, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  appleProfileTypes,
  type AppleAccountRow,
  type AppleProfileType,
  type RegisterAppleDevicesResult,
} from '@release/contract';
import { bindAppleAccount, regenerateAppleProfile, registerAppleDevices } from '../../api/apple-accounts.api.ts';
import { fetchAppList } from '../../api/apps.api.ts';
import { fetchCertificates } from '../../api/certificates.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
import { toast } from '../../app/feedback.ts';
import { defaultAppFilter } from '../apps/app-filter.context.tsx';
import { appleAccountText as t } from './apple-account.strings.ts';

const width = 'min(560px, calc(100vw - 32px))';

interface ModalProps {
  account: AppleAccountRow | null;
  onClose: () => void;
  onDone: () => void;
}

/** 注册设备: every local iOS device Apple lacks is registered; per-device refusals are listed. */
export function AppleRegisterDevicesModal({ account, onClose, onDone }: ModalProps) {
  const [result, setResult] = useState<RegisterAppleDevicesResult | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = account?.unregisteredDevices ?? [];
  const close = () => {
    setResult(null);
    onClose();
  };
  const run = async () => {
    if (!account) return;
    setBusy(true);
    try {
      const outcome = await registerAppleDevices(
        account.id,
        pending.map((d) => d.id),
      );
      setResult(outcome);
      if (outcome.registered.length) toast.success(t.registered(outcome.registered.length));
      onDone();
    } catch {
      // toasted by the API client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={t.registerTitle}
      open={account !== null}
      onCancel={close}
      onOk={result ? close : () => void run()}
      okText={result ? t.close : t.registerOk}
      okButtonProps={{
        disabled: !result && pending.length === 0,
        loading: busy,
        'data-testid': 'apple-register-submit',
      }}
      cancelButtonProps={{ style: result ? { display: 'none' } : undefined }}
      width={width}
    >
      {result ? (
        <div data-testid="apple-register-result">
          <Alert type="success" showIcon message={t.registered(result.registered.length)} />
          {result.failed.length > 0 && (
            <List
              size="small"
              header={t.registerFailed}
              dataSource={result.failed}
              renderItem={(f) => <List.Item>{`${f.deviceName}（${f.udid}）：${f.msg}`}</List.Item>}
            />
          )}
        </div>
      ) : pending.length === 0 ? (
        <Typography.Text type="secondary">{t.registerNone}</Typography.Text>
      ) : (
        <List
          size="small"
          header={t.registerHint}
          dataSource={pending}
          renderItem={(d) => (
            <List.Item data-testid="apple-register-device">{`${d.deviceName}（${d.udid}）`}</List.Item>
          )}
        />
      )}
    </Modal>
  );
}

interface ProfileValues {
  bundleId: string;
  profileType: AppleProfileType;
}

/** 重新生成描述文件 for one of the account's bundle ids. */
export function AppleProfileModal({ account, onClose, onDone }: ModalProps) {
  const [form] = Form.useForm<ProfileValues>();
  useResetOnOpen(form, account !== null, account, (a) => ({
    bundleId: a.bundleIds[0]?.identifier,
    profileType: 'ad-hoc' as const,
  }));
  const action = useSaveAction({
    form,
    successText: t.profileSaved,
    save: (values) =>
      regenerateAppleProfile({ id: account?.id ?? 0, bundleId: values.bundleId, profileType: values.profileType }),
    onSaved: onDone,
  });
  return (
    <Modal
      title={t.profileTitle}
      open={account !== null}
      onCancel={onClose}
      {...action.modalProps}
      okText={t.profileOk}
      okButtonProps={{ 'data-testid': 'apple-profile-submit' }}
      forceRender
      width={width}
    >
      <Typography.Paragraph type="secondary">{t.profileHint}</Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="apple-profile-modal">
        <Form.Item
          name="bundleId"
          label={t.profileBundleId}
          rules={[{ required: true, message: t.profileBundleIdRequired }]}
        >
          <Select
            data-testid="apple-profile-bundle"
            showSearch
            options={(account?.bundleIds ?? []).map((b) => ({
              value: b.identifier,
              label: `${b.identifier}（${b.name}）`,
            }))}
          />
        </Form.Item>
        <Form.Item name="profileType" label={t.profileType}>
          <Select options={appleProfileTypes.map((type) => ({ value: type, label: t.profileTypes[type] }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface BindValues {
  appIds: number[];
  certificateIds: number[];
}

/** 绑定: the apps and uploaded certificates that belong to this Apple account. */
export function AppleBindModal({ account, onClose, onDone }: ModalProps) {
  const [form] = Form.useForm<BindValues>();
  const open = account !== null;
  const apps = useQuery({
    queryKey: queryKeys.appList(defaultAppFilter),
    queryFn: ({ signal }) => fetchAppList(defaultAppFilter, signal),
    enabled: open,
  });
  const certificates = useQuery({
    queryKey: queryKeys.certificates,
    queryFn: ({ signal }) => fetchCertificates(signal),
    enabled: open,
  });
  useResetOnOpen(form, open, account, (a) => ({ appIds: a.appIds, certificateIds: a.certificateIds }));
  const action = useSaveAction({
    form,
    successText: t.bound,
    save: (values) =>
      bindAppleAccount({
        id: account?.id ?? 0,
        appIds: values.appIds ?? [],
        certificateIds: values.certificateIds ?? [],
      }),
    onSaved: onDone,
  });
  return (
    <Modal
      title={t.bindTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      okButtonProps={{ 'data-testid': 'apple-bind-submit' }}
      forceRender
      width={width}
    >
      <Form form={form} layout="vertical" data-testid="apple-bind-modal">
        <Form.Item name="appIds" label={t.bindApps}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            loading={apps.isFetching}
            options={(apps.data?.apps ?? []).map((a) => ({ value: a.appId, label: a.appName }))}
          />
        </Form.Item>
        <Form.Item name="certificateIds" label={t.bindCertificates}>
          <Select
            data-testid="apple-bind-certificates"
            mode="multiple"
            optionFilterProp="label"
            loading={certificates.isFetching}
            options={(certificates.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
