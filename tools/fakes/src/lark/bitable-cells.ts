import type { FakeResponse } from '../shared/http-server.ts';
import type { BitableField, BitableRecord, BitableTable } from './bitable-state.ts';
import { fail, isRecord } from './envelope.ts';
import type { LarkContext } from './lark-context.ts';

/** Bitable refusals: most are HTTP 200 with the code (contract §E). */
export class BitableError extends Error {
  constructor(readonly response: FakeResponse) {
    super(String((response.body as { msg?: string }).msg));
  }
}
export const bitableFail = (code: number, msg: string, status = 200): BitableError =>
  new BitableError(fail(status, code, msg));

const READ_ONLY = new Set([19, 20, 1001, 1002, 1003, 1004, 1005]);
const SELECT_COLORS = 55;

function optionsOf(field: BitableField): Array<{ id: string; name: string; color: number }> {
  field.property ??= {};
  const property = field.property;
  if (!Array.isArray(property.options)) property.options = [];
  return property.options as Array<{ id: string; name: string; color: number }>;
}

/** The option id for a name, creating the option when it is new (as Lark does on write). */
function optionIdFor(ctx: LarkContext, field: BitableField, name: string): string {
  const options = optionsOf(field);
  const found = options.find((o) => o.name === name);
  if (found) return found.id;
  const option = { id: ctx.bitable.newOptionId(), name, color: options.length % SELECT_COLORS };
  options.push(option);
  return option.id;
}

/** A written cell value → what is stored (null clears the cell). Wrong shapes give the type's 12540xx code. */
export function writeCell(
  ctx: LarkContext,
  table: BitableTable,
  field: BitableField,
  value: unknown,
  idType: string,
): unknown {
  if (value === null) return null;
  const conv = (code: number) =>
    bitableFail(code, `${field.field_name}: cell value does not fit a field of type ${field.type}`);
  if (READ_ONLY.has(field.type)) throw bitableFail(1254001, `${field.field_name} is read-only`);
  switch (field.type) {
    case 1:
    case 13:
      if (typeof value !== 'string') throw conv(1254060);
      return value;
    case 2:
      if (typeof value !== 'number' || !Number.isFinite(value)) throw conv(1254061);
      return value;
    case 3:
      if (typeof value !== 'string' || value === '') throw conv(1254062);
      return optionIdFor(ctx, field, value);
    case 4:
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== '')) throw conv(1254063);
      return value.map((v) => optionIdFor(ctx, field, v as string));
    case 5:
      if (typeof value !== 'number' || !Number.isInteger(value)) throw conv(1254064);
      return value;
    case 7:
      if (typeof value !== 'boolean') throw conv(1254065);
      return value;
    case 11:
      if (!Array.isArray(value)) throw conv(1254066);
      return value.map((v) => {
        const user = isRecord(v) && typeof v.id === 'string' ? ctx.state.findUser(idType, v.id) : undefined;
        if (!user) throw conv(1254066);
        return user.openId;
      });
    case 15:
      if (!isRecord(value) || typeof value.link !== 'string') throw conv(1254060);
      return { text: typeof value.text === 'string' ? value.text : value.link, link: value.link };
    case 17: {
      // Only files uploaded to this base through drive media (parent_node = its app_token): else AttachFieldConvFail.
      const base = [...ctx.bitable.apps.values()].find((a) => a.tables.includes(table));
      const mediaOf = (v: unknown) =>
        isRecord(v) && typeof v.file_token === 'string' ? ctx.bitable.media.get(v.file_token) : undefined;
      if (!Array.isArray(value) || !value.every((v) => mediaOf(v)?.parent_node === base?.app_token))
        throw conv(1254069);
      return value.map((v) => ({ file_token: (v as { file_token: string }).file_token, name: mediaOf(v)?.name ?? '' }));
    }
    case 18:
    case 21:
      if (
        !Array.isArray(value) ||
        !value.every((v) => typeof v === 'string' && table.records.some((r) => r.record_id === v))
      )
        throw conv(1254067);
      return value;
    default:
      return value;
  }
}

function userCell(ctx: LarkContext, openId: string, idType: string): Record<string, unknown> {
  const user = ctx.state.users.get(openId);
  const id = !user || idType === 'open_id' ? openId : idType === 'union_id' ? user.unionId : user.userId;
  return {
    id,
    name: user?.name ?? '',
    en_name: user?.enName ?? '',
    email: user?.email ?? '',
    avatar_url: user?.avatarUrl ?? '',
  };
}

/** A stored cell → its read form (text as segments, options by name, people expanded); undefined when empty. */
export function readCell(
  ctx: LarkContext,
  table: BitableTable,
  field: BitableField,
  record: BitableRecord,
  idType: string,
): unknown {
  switch (field.type) {
    case 1001:
      return record.created_time;
    case 1002:
      return record.last_modified_time;
    case 1003:
      return [userCell(ctx, record.created_by, idType)];
    case 1004:
      return [userCell(ctx, record.last_modified_by, idType)];
    case 1005:
      return String(table.records.indexOf(record) + 1);
  }
  const value = record.cells.get(field.field_id);
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0))
    return undefined;
  const nameOf = (id: unknown) => optionsOf(field).find((o) => o.id === id)?.name;
  switch (field.type) {
    case 1:
      return [{ type: 'text', text: value }];
    case 3:
      return nameOf(value);
    case 4:
      return (value as string[]).map(nameOf).filter(Boolean);
    case 11:
      return (value as string[]).map((id) => userCell(ctx, id, idType));
    case 17:
      return (value as Array<{ file_token: string; name: string }>).map((a) => ({
        ...a,
        size: ctx.bitable.media.get(a.file_token)?.size ?? 0,
        type: ctx.bitable.media.get(a.file_token)?.mime ?? 'application/octet-stream',
        url: `${ctx.baseUrl()}/open-apis/drive/v1/medias/${a.file_token}/download`,
        tmp_url: `${ctx.baseUrl()}/open-apis/drive/v1/medias/batch_get_tmp_download_url?file_tokens=${a.file_token}`,
      }));
    case 18:
    case 21:
      return { link_record_ids: value };
    default:
      return value;
  }
}

/** A cell as plain text for filters and sorting. */
export function cellText(ctx: LarkContext, table: BitableTable, field: BitableField, record: BitableRecord): string {
  const read = readCell(ctx, table, field, record, 'open_id');
  if (read === undefined) return '';
  if (field.type === 1) return (read as Array<{ text: string }>).map((s) => s.text).join('');
  if (field.type === 11 || field.type === 1003 || field.type === 1004)
    return (read as Array<{ id: string }>).map((u) => u.id).join(',');
  if (field.type === 15) return (read as { link: string }).link;
  if (Array.isArray(read)) return read.map(String).join(',');
  return String(read);
}

export function presentRecord(
  ctx: LarkContext,
  table: BitableTable,
  record: BitableRecord,
  idType: string,
  options: { fieldNames?: string[]; automatic?: boolean } = {},
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const field of table.fields) {
    if (options.fieldNames && !options.fieldNames.includes(field.field_name)) continue;
    const value = readCell(ctx, table, field, record, idType);
    if (value !== undefined) fields[field.field_name] = value;
  }
  const out: Record<string, unknown> = { record_id: record.record_id, id: record.record_id, fields };
  if (options.automatic) {
    out.created_time = record.created_time;
    out.last_modified_time = record.last_modified_time;
    out.created_by = userCell(ctx, record.created_by, idType);
    out.last_modified_by = userCell(ctx, record.last_modified_by, idType);
  }
  return out;
}
