import { TaskFieldDefaults, type FieldGroupName, type FieldOption } from '@release/contract';
import type { BitableFieldSpec } from '../../integrations/lark/lark-bitable.ts';

/** How tracker fields are named in Lark: custom fields of the task list (tasks) and columns of the Bitable (bugs). */
export const TASK_CUSTOM_FIELDS = { status: '状态', priority: '优先级' } as const;

/** The bug table's columns; `本地ID` carries our guid so a record created here is recognised when read back. */
export const BUG_COLUMNS = {
  summary: '标题',
  description: '描述',
  bugStatus: '缺陷状态',
  bugSeverity: '严重程度',
  bugPriority: '缺陷优先级',
  bugType: '缺陷类型',
  moduleName: '模块',
  assignees: '指派给',
  startAt: '开始时间',
  due: '截止时间',
  bugRemark: '备注',
  localId: '本地ID',
  /** Attachments (type 17): files uploaded through drive media to the base. */
  attachments: '附件',
} as const;

/** Bug table select columns and the field_list group each one feeds. */
export const BUG_SELECTS: Array<[FieldGroupName, string]> = [
  ['bugStatus', BUG_COLUMNS.bugStatus],
  ['bugSeverity', BUG_COLUMNS.bugSeverity],
  ['bugPriority', BUG_COLUMNS.bugPriority],
  ['bugType', BUG_COLUMNS.bugType],
  ['moduleName', BUG_COLUMNS.moduleName],
];

const labels = (group: keyof typeof TaskFieldDefaults) => TaskFieldDefaults[group].map((o) => ({ name: o.label }));

export function bugTableFields(): BitableFieldSpec[] {
  return [
    { field_name: BUG_COLUMNS.summary, type: 1 },
    { field_name: BUG_COLUMNS.description, type: 1 },
    { field_name: BUG_COLUMNS.bugStatus, type: 3, property: { options: labels('bugStatus') } },
    { field_name: BUG_COLUMNS.bugSeverity, type: 3, property: { options: labels('bugSeverity') } },
    { field_name: BUG_COLUMNS.bugPriority, type: 3, property: { options: labels('bugPriority') } },
    { field_name: BUG_COLUMNS.bugType, type: 3, property: { options: labels('bugType') } },
    { field_name: BUG_COLUMNS.moduleName, type: 3, property: { options: [] } },
    { field_name: BUG_COLUMNS.assignees, type: 11 },
    { field_name: BUG_COLUMNS.startAt, type: 5 },
    { field_name: BUG_COLUMNS.due, type: 5 },
    { field_name: BUG_COLUMNS.bugRemark, type: 1 },
    { field_name: BUG_COLUMNS.localId, type: 1 },
    { field_name: BUG_COLUMNS.attachments, type: 17 },
  ];
}

/**
 * Lark shows labels (新建, 高 …); the tracker stores the spec's values (new, high …). A label the spec knows maps
 * to its value; any other label (an option someone added in Lark) is its own value.
 */
export function valueOfLabel(group: FieldGroupName, label: string): string {
  const defaults = (TaskFieldDefaults as Record<string, readonly FieldOption[]>)[group] ?? [];
  return defaults.find((o) => o.label === label)?.value ?? label;
}

export function labelOfValue(group: FieldGroupName, value: string): string {
  const defaults = (TaskFieldDefaults as Record<string, readonly FieldOption[]>)[group] ?? [];
  return defaults.find((o) => o.value === value)?.label ?? value;
}

/** A Bitable select column's options as a field_list group. */
export function groupFromOptions(group: FieldGroupName, options: Array<{ name: string }>): FieldOption[] {
  return options.map((o) => ({ value: valueOfLabel(group, o.name), label: o.name }));
}

/** Lark Task text limits (contract §D): longer local text is cut when sent. */
export const LARK_TEXT_MAX = 3000;
export const cut = (text: string) =>
  [...text].length > LARK_TEXT_MAX ? [...text].slice(0, LARK_TEXT_MAX).join('') : text;
