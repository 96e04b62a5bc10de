import { AutoComplete, DatePicker, Form, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import type { RecordType } from '@release/contract';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { TaskAttachments, type AttachmentItem } from './task-attachments.tsx';
import type { TaskOptions } from './use-task-options.ts';
import { tasksText as t } from './tasks.strings.ts';

export interface TaskFormValues {
  summary: string;
  description: string;
  assigneeIds: number[];
  timeRange: [Dayjs, Dayjs] | null;
  priority?: string | null;
  status?: string | null;
  moduleName?: string | null;
  bugStatus?: string | null;
  bugSeverity?: string | null;
  bugPriority?: string | null;
  bugType?: string | null;
  bugRemark?: string | null;
  files: AttachmentItem[];
}

interface TaskFormFieldsProps {
  recordType: RecordType;
  mode: 'create' | 'edit';
  options: TaskOptions;
}

/** SPEC §5 Task form: summary, assignee (task 负责人 / bug 指派给), time range, and the type's own fields; status only when editing. */
export function TaskFormFields({ recordType, mode, options }: TaskFormFieldsProps) {
  const isMobile = useIsMobile();
  const { groups } = options;
  const select = (name: keyof TaskFormValues, label: string, group: keyof typeof groups, testId: string) => (
    <Form.Item name={name} label={label}>
      <Select allowClear placeholder={t.fields.selectPlaceholder} options={groups[group]} data-testid={testId} />
    </Form.Item>
  );
  return (
    <>
      <Form.Item
        name="summary"
        label={t.fields.summary}
        rules={[{ required: true, whitespace: true, message: t.messages.summaryRequired }]}
      >
        <Input placeholder={t.fields.summaryPlaceholder} maxLength={1000} data-testid="task-summary" />
      </Form.Item>
      <Form.Item
        name="assigneeIds"
        label={t.fields.assignee[recordType]}
        rules={[{ required: true, type: 'array', min: 1, message: t.messages.assigneeRequired(recordType) }]}
      >
        <Select
          mode="multiple"
          placeholder={t.fields.selectPlaceholder}
          optionFilterProp="label"
          options={options.users.map((u) => ({ value: u.userId, label: u.name }))}
          data-testid="task-assignees"
        />
      </Form.Item>
      <Form.Item
        name="timeRange"
        label={t.fields.timeRange}
        rules={[{ required: true, message: t.messages.timeRangeRequired }]}
      >
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          placeholder={[t.fields.start, t.fields.due]}
          style={{ width: '100%' }}
          // Two months side by side do not fit a phone.
          {...(isMobile ? { panelRender: (panel) => <div className="task-range-panel-mobile">{panel}</div> } : {})}
          data-testid="task-time-range"
        />
      </Form.Item>
      {recordType === 'task' ? (
        <>
          {select('priority', t.fields.priority, 'priority', 'task-priority')}
          {mode === 'edit' ? select('status', t.fields.status, 'status', 'task-status') : null}
        </>
      ) : (
        <>
          {mode === 'edit' ? select('bugStatus', t.fields.bugStatus, 'bugStatus', 'task-bug-status') : null}
          {select('bugSeverity', t.fields.bugSeverity, 'bugSeverity', 'task-bug-severity')}
          {select('bugPriority', t.fields.bugPriority, 'bugPriority', 'task-bug-priority')}
          {select('bugType', t.fields.bugType, 'bugType', 'task-bug-type')}
          <Form.Item name="moduleName" label={t.fields.moduleName}>
            <AutoComplete
              allowClear
              placeholder={t.fields.modulePlaceholder}
              options={groups.moduleName}
              filterOption
              data-testid="task-module"
            />
          </Form.Item>
        </>
      )}
      <Form.Item name="description" label={t.fields.description}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={20000} data-testid="task-description" />
      </Form.Item>
      {recordType === 'bug' ? (
        <Form.Item name="bugRemark" label={t.fields.bugRemark}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={20000} />
        </Form.Item>
      ) : null}
      <Form.Item
        name="files"
        label={t.fields.attachments}
        valuePropName="fileList"
        getValueFromEvent={(files: AttachmentItem[]) => files}
      >
        <TaskAttachments />
      </Form.Item>
    </>
  );
}
