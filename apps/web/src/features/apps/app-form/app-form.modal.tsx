import { Alert, Button, Form, Modal, type FormInstance } from 'antd';
import { AppMessages, randomAppPath, ResultCode, type AppDetail } from '@release/contract';
import { isApiError } from '../../../api/api-error.ts';
import { saveApp } from '../../../api/apps.api.ts';
import { useResetOnOpen, useSaveAction } from '../../../app/components/use-save-action.ts';
import { toast } from '../../../app/feedback.ts';
import { useIsAdmin } from '../../../app/session.store.ts';
import { zh } from '../../../locales/zh-CN.ts';
import { APP_SETTINGS_MODAL_WIDTH } from '../app.constants.ts';
import { AppFormFields } from './app-form.fields.tsx';
import { detailValues, newAppValues, toSaveBody, type AppFormValues } from './app-form.values.ts';

export interface SavedApp {
  appId: number;
  path: string;
}

interface AppFormModalProps {
  open: boolean;
  /** null: 添加应用; otherwise the 应用设置 of this app. */
  app: AppDetail | null;
  onClose: () => void;
  onSaved: (saved: SavedApp) => void;
}

/**
 * SPEC §8: a duplicate path gets a new random one and a warning. saveApp is silent (so that case
 * is not also an error toast), which leaves the other failures to show here.
 */
function showSaveError(form: FormInstance<AppFormValues>, error: unknown): void {
  if (!isApiError(error)) {
    toast.error(zh.common.networkError);
    return;
  }
  if (error.code === ResultCode.conflict && error.message === AppMessages.duplicatePath) {
    form.setFieldValue('path', randomAppPath());
    toast.warning(AppMessages.duplicatePathRegenerated);
    return;
  }
  if (error.kind === 'business' || error.kind === 'network' || error.kind === 'timeout')
    toast.error(error.message || zh.common.networkError);
}

/** 添加应用 (admins) and 应用设置 (width 800): the same form; only admins may save, others read it. */
export function AppFormModal({ open, app, onClose, onSaved }: AppFormModalProps) {
  const isAdmin = useIsAdmin();
  const canEdit = app ? app.permit === 'admin' : isAdmin;
  const [form] = Form.useForm<AppFormValues>();
  useResetOnOpen(form, open, app, detailValues, newAppValues);
  const action = useSaveAction({
    form,
    save: (values) => saveApp(toSaveBody(values, app)),
    onSaved: (result, values) => onSaved({ appId: app?.appId ?? result.appId, path: values.path.trim() }),
    onError: (error) => showSaveError(form, error),
  });

  const footer = canEdit
    ? [
        <Button key="cancel" onClick={onClose}>
          {zh.common.cancel}
        </Button>,
        <Button key="save" type="primary" loading={action.isSaving} onClick={action.submit} data-testid="app-save">
          {zh.common.save}
        </Button>,
      ]
    : [
        <Button key="close" onClick={onClose} data-testid="app-form-close">
          {zh.appForm.close}
        </Button>,
      ];

  return (
    <Modal
      title={app ? zh.appForm.settingsTitle : zh.addApp.title}
      open={open}
      onCancel={onClose}
      footer={footer}
      destroyOnHidden
      width={`min(${APP_SETTINGS_MODAL_WIDTH}px, calc(100vw - 32px))`}
    >
      <div data-testid={app ? 'app-settings-modal' : 'add-app-modal'}>
        {canEdit ? null : <Alert type="info" showIcon title={zh.appForm.readOnly} style={{ marginBottom: 16 }} />}
        <Form form={form} layout="vertical" disabled={!canEdit} requiredMark={canEdit}>
          <AppFormFields form={form} open={open} canEdit={canEdit} app={app} />
        </Form>
      </div>
    </Modal>
  );
}
