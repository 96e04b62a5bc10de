/** Turns the bodies of Lark's bitable events into before/after text for the wiki-difference modal. */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const RECORD_ACTIONS: Record<string, string> = {
  record_added: '新增记录',
  record_deleted: '删除记录',
  record_edited: '修改记录',
};
const FIELD_ACTIONS: Record<string, string> = {
  field_added: '新增字段',
  field_deleted: '删除字段',
  field_edited: '修改字段',
};

/** A cell's `field_value` is a JSON string: show text as text, anything else as compact JSON. */
function cellText(raw: unknown): string {
  if (typeof raw !== 'string') return raw === undefined || raw === null ? '' : JSON.stringify(raw);
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((v) => isObject(v) && typeof v.text === 'string'))
      return value.map((v) => (v as { text: string }).text).join('');
    return JSON.stringify(value);
  } catch {
    return raw;
  }
}

function cellLines(values: unknown): string[] {
  return list(values)
    .filter(isObject)
    .map((v) => `  ${String(v.field_id ?? '')}: ${cellText(v.field_value)}`.replace(/\n/g, ' '));
}

/** drive.file.bitable_record_changed_v1: one block per record, its cells before and after. */
export function recordChangeText(event: Json): { before: string; after: string; summary: string } {
  const before: string[] = [];
  const after: string[] = [];
  const actions = list(event.action_list).filter(isObject);
  for (const action of actions) {
    const title = `${RECORD_ACTIONS[String(action.action)] ?? String(action.action)} ${String(action.record_id ?? '')}`;
    before.push(title, ...cellLines(action.before_value));
    after.push(title, ...cellLines(action.after_value));
  }
  const kinds = [...new Set(actions.map((a) => RECORD_ACTIONS[String(a.action)] ?? String(a.action)))];
  return {
    before: before.join('\n'),
    after: after.join('\n'),
    summary: `${kinds.join('、') || '记录变更'}（${actions.length} 条）`,
  };
}

function fieldLines(value: unknown): string[] {
  if (!isObject(value)) return [];
  const lines = [`  名称: ${String(value.name ?? '')}`, `  类型: ${String(value.type ?? '')}`];
  if (value.description)
    lines.push(
      `  描述: ${typeof value.description === 'string' ? value.description : JSON.stringify(value.description)}`,
    );
  if (value.property !== undefined && value.property !== null) lines.push(`  属性: ${JSON.stringify(value.property)}`);
  return lines;
}

/** drive.file.bitable_field_changed_v1: one block per field, its definition before and after. */
export function fieldChangeText(event: Json): { before: string; after: string; summary: string } {
  const before: string[] = [];
  const after: string[] = [];
  const actions = list(event.action_list).filter(isObject);
  for (const action of actions) {
    const title = `${FIELD_ACTIONS[String(action.action)] ?? String(action.action)} ${String(action.field_id ?? '')}`;
    before.push(title, ...fieldLines(action.before_value));
    after.push(title, ...fieldLines(action.after_value));
  }
  const names = actions
    .map((a) =>
      isObject(a.after_value) ? a.after_value.name : isObject(a.before_value) ? a.before_value.name : a.field_id,
    )
    .filter(Boolean);
  return { before: before.join('\n'), after: after.join('\n'), summary: names.map(String).join('、') || '字段变更' };
}

/** The operator's open_id, from `operator_id` (bitable, folder) or the first of `operator_id_list` (edit). */
export function operatorOpenId(event: Json): string | null {
  const single = isObject(event.operator_id) ? event.operator_id.open_id : undefined;
  if (typeof single === 'string' && single) return single;
  const first = list(event.operator_id_list).find(isObject);
  return first && typeof first.open_id === 'string' && first.open_id ? first.open_id : null;
}

/** The path of a document of this type on the Lark web (`https://<tenant>.feishu.cn/<path>/<token>`). */
export function docPath(objType: string): string {
  const paths: Record<string, string> = {
    doc: 'docs',
    docx: 'docx',
    sheet: 'sheets',
    bitable: 'base',
    file: 'file',
    folder: 'drive/folder',
    slides: 'slides',
    mindnote: 'mindnotes',
  };
  return paths[objType] ?? objType;
}
