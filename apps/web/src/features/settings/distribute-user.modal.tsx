import { useEffect } from 'react';
import { Form, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { AppListItem, UserRow } from '@release/contract';
import { fetchUserApps, saveUserPermits } from '../../api/distribute-users.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useSaveAction } from '../../app/components/use-save-action.ts';
import { zh } from '../../locales/zh-CN.ts';

const t = zh.distributeUser;

interface PermitFormValues {
  edit: number[];
  view: number[];
}

interface DistributeUserModalProps {
  open: boolean;
  user: UserRow | null;
  apps: AppListItem[];
  onClose: () => void;
  onSaved: () => void;
}

/** 分配应用: pick the apps a (non-admin) user may edit and those they may only download; an app is in one list at most. */
export function DistributeUserModal({ open, user, apps, onClose, onSaved }: DistributeUserModalProps) {
  const [form] = Form.useForm<PermitFormValues>();
  const userId = user?.userId ?? 0;
  const current = useQuery({
    queryKey: queryKeys.userAppsOf(userId),
    queryFn: ({ signal }) => fetchUserApps(userId, signal),
    enabled: open && userId > 0,
  });
  const edit = Form.useWatch('edit', form) ?? [];
  const view = Form.useWatch('view', form) ?? [];

  const loaded = current.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: opening the modal for another user clears what was typed for the last one
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, userId, form]);
  useEffect(() => {
    if (!open || !loaded) return;
    form.setFieldsValue({
      edit: loaded.filter((a) => a.permit === 'edit').map((a) => a.appId),
      view: loaded.filter((a) => a.permit === 'view').map((a) => a.appId),
    });
    // Refill only when the modal opens or the user's permits arrive, not on every edit.
  }, [open, loaded, form]);

  const action = useSaveAction({
    form,
    save: (values) => saveUserPermits(userId, loaded ?? [], values.edit ?? [], values.view ?? []),
    onSaved,
  });

  const options = (taken: number[]) =>
    apps.map((a) => ({ value: a.appId, label: a.appName, disabled: taken.includes(a.appId) }));
  const select = (testId: string, taken: number[]) => (
    <Select
      mode="multiple"
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t.pickApps}
      maxTagCount="responsive"
      data-testid={testId}
      loading={current.isLoading}
      options={options(taken)}
    />
  );

  return (
    <Modal
      title={t.modalTitle(user?.username ?? '')}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      okButtonProps={{ disabled: !loaded, 'data-testid': 'distribute-save' }}
      forceRender
      width="min(560px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid="distribute-modal" initialValues={{ edit: [], view: [] }}>
        <Form.Item name="edit" label={t.editApps} extra={t.editHint}>
          {select('distribute-edit-select', view)}
        </Form.Item>
        <Form.Item name="view" label={t.viewApps} extra={t.viewHint}>
          {select('distribute-view-select', edit)}
        </Form.Item>
      </Form>
    </Modal>
  );
}
