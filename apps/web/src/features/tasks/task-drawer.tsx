import { useEffect, useRef, useState } from 'react';
import { Button, Divider, Drawer, Flex, Form } from 'antd';
import dayjs from 'dayjs';
import type { RecordType, TaskRecord } from '@release/contract';
import { createTask, updateTask } from '../../api/tasks.api.ts';
import { toast } from '../../app/feedback.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { attachmentItems, storedFiles } from './task-attachments.tsx';
import { TaskComments } from './task-comments.tsx';
import { TaskFormFields, type TaskFormValues } from './task-form-fields.tsx';
import { TaskSyncAlert } from './task-sync-alert.tsx';
import type { TaskOptions } from './use-task-options.ts';
import { tasksText as t } from './tasks.strings.ts';

export type DrawerState = { mode: 'create'; recordType: RecordType } | { mode: 'edit'; record: TaskRecord };

interface TaskDrawerProps {
  appId: number;
  state: DrawerState | null;
  canEdit: boolean;
  options: TaskOptions;
  onClose: () => void;
  /** After a save or a comment: the table and the badges. */
  onChanged: () => void;
}

function valuesOf(record: TaskRecord): Partial<TaskFormValues> {
  return {
    summary: record.summary,
    description: record.description,
    assigneeIds: record.assigneeIds,
    timeRange: record.startAt !== null && record.due !== null ? [dayjs(record.startAt), dayjs(record.due)] : null,
    priority: record.priority,
    status: record.status,
    moduleName: record.moduleName,
    bugStatus: record.bugStatus,
    bugSeverity: record.bugSeverity,
    bugPriority: record.bugPriority,
    bugType: record.bugType,
    bugRemark: record.bugRemark,
    files: attachmentItems(record.recordType === 'task' ? record.attachFiles : record.bugAttachFiles),
  };
}

const newClientToken = () => crypto.randomUUID();

/** The create/edit drawer (SPEC §2): mode create or edit, the form's messages, and comments when editing. */
export function TaskDrawer({ appId, state, canEdit, options, onClose, onChanged }: TaskDrawerProps) {
  const isMobile = useIsMobile();
  const [form] = Form.useForm<TaskFormValues>();
  const [isSaving, setIsSaving] = useState(false);
  const inFlight = useRef(false);
  // One token per opening: a double click or a retried request never makes two records.
  const clientToken = useRef(newClientToken());
  const recordType = state?.mode === 'edit' ? state.record.recordType : (state?.recordType ?? 'task');
  const mode = state?.mode ?? 'create';
  const editable = canEdit;

  useEffect(() => {
    if (!state) return;
    clientToken.current = newClientToken();
    form.resetFields();
    if (state.mode === 'edit') form.setFieldsValue(valuesOf(state.record));
    else form.setFieldsValue({ priority: recordType === 'task' ? 'high' : undefined, files: [] });
    // Only a new opening (or another record) refills the form.
  }, [state, form, recordType]);

  const submit = async () => {
    if (inFlight.current || !state) return;
    let values: TaskFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // Each field shows its first message.
    }
    const files = storedFiles(values.files);
    if (files === null) {
      toast.warning(t.upload.uploading);
      return;
    }
    const [start, due] = values.timeRange ?? [null, null];
    const body = {
      appId,
      recordType,
      summary: values.summary.trim(),
      description: values.description ?? '',
      assigneeIds: values.assigneeIds,
      startAt: start ? start.valueOf() : null,
      due: due ? due.valueOf() : null,
      ...(recordType === 'task'
        ? { priority: values.priority ?? null, status: values.status ?? null, attachFiles: files }
        : {
            moduleName: values.moduleName ?? null,
            bugStatus: values.bugStatus ?? null,
            bugSeverity: values.bugSeverity ?? null,
            bugPriority: values.bugPriority ?? null,
            bugType: values.bugType ?? null,
            bugRemark: values.bugRemark ?? null,
            bugFiles: files,
          }),
    };
    inFlight.current = true;
    setIsSaving(true);
    try {
      if (state.mode === 'create') {
        await createTask({ ...body, clientToken: clientToken.current });
        toast.success(t.created);
      } else {
        const saved = await updateTask({ ...body, guid: state.record.guid, recordVersion: state.record.recordVersion });
        // Deleted in Lark while the drawer was open: the edit is kept here, no longer synced — say so, not only 保存成功.
        if (saved.larkDeleted === 'kept' && state.record.larkDeleted !== 'kept')
          toast.warning(`${t.saved}。${t.larkSync.deleted.kept}`);
        else toast.success(t.saved);
      }
      onChanged();
      onClose();
    } catch {
      // The API client has shown the reason (409 when someone changed the record meanwhile).
    } finally {
      inFlight.current = false;
      setIsSaving(false);
    }
  };

  const title =
    mode === 'create'
      ? t.drawerTitle.create[recordType]
      : editable
        ? t.drawerTitle.edit[recordType]
        : t.drawerTitle.view[recordType];
  return (
    <Drawer
      title={title}
      placement="right"
      open={state !== null}
      onClose={onClose}
      size={isMobile ? '100%' : 640}
      destroyOnHidden
      data-testid="task-drawer"
      footer={
        editable ? (
          <Flex justify="flex-end" gap={8}>
            <Button onClick={onClose}>{t.cancel}</Button>
            <Button type="primary" loading={isSaving} onClick={() => void submit()} data-testid="task-submit">
              {t.submit[mode]}
            </Button>
          </Flex>
        ) : null
      }
    >
      {state?.mode === 'edit' ? <TaskSyncAlert record={state.record} /> : null}
      <Form
        form={form}
        layout="vertical"
        disabled={!editable}
        data-testid="task-form"
        data-mode={mode}
        data-record-type={recordType}
      >
        <TaskFormFields recordType={recordType} mode={mode} options={options} />
      </Form>
      {state?.mode === 'edit' ? (
        <>
          <Divider />
          <TaskComments
            taskGuid={state.record.guid}
            canComment={canEdit}
            localOnly={state.record.recordType === 'bug' && state.record.larkRecordId !== null}
            onChanged={onChanged}
          />
        </>
      ) : null}
    </Drawer>
  );
}
